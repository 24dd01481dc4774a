#!/usr/bin/env python3
"""profile23.py - a recorded profile with hmpi-calibrate 23's in-L1 costs, from its calibration's log.

hmpi-calibrate 23 fits b_l1, r_l1 and R_slices_l1 (profile format 22): the
slopes of the reduction, third-buffer reduction and slices-ring sweeps over
their sizes whose data stay in the L1s (split_at_l1,
tools/hmpi-calibrate/measure.cpp; docs/model.md, "Folds in the L1s"). The
log has every size of those sweeps, so this applies the same fit to it and
writes the profile with the three keys added as hmpi-calibrate 23 adds them
(format 22; r_l1 raised to b_l1 as its orderings do), so that a recorded run
can be replayed (bench/coll/replay.sh) with the model it would get now.

The log's sweeps are its first link's (one cache domain: alpha, whose costs
hmpi-calibrate copies to beta and to the level); the keys go to every link of
the profile (of the state KEY_PREFIX names) that has R_slices_l2.

usage: bench/coll/profile23.py LOG[.gz] PROFILE_IN PROFILE_OUT L1_BYTES [KEY_PREFIX]
  L1_BYTES    one core's L1 data cache on the machine the log is from
              (hwloc; 49152 on the 2-core EPYC guest)
  KEY_PREFIX  the keys' prefix in PROFILE_IN (state2. for the second state
              of a combined profile; default none)
"""
import gzip
import re
import sys

LINE = 64
SLICE_FOLD_L1_SHARE = 0.5  # kSliceFoldL1Share, collectives/model/params.hpp
MIN_LINES = 16             # split_at_l1's smallest size


def top_three_slope(x, y):
    """fit_top_three: the least-squares slope of the last three points; None unless rising."""
    x, y = x[-3:], y[-3:]
    mx, my = sum(x) / 3, sum(y) / 3
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    return sxy / sxx if sxx > 0 and sxy > 0 else None


def split_at_l1(x, y, line_bytes, within, l1_bytes, near_line, near_lines, above):
    """measure.cpp's split_at_l1: the in-L1 slope, or None."""
    ix, iy, beyond = [], [], False
    for m, t in zip(x, y):
        if line_bytes * m <= within and m >= MIN_LINES:
            ix.append(m)
            iy.append(t - near_line * min(m, near_lines))
        elif line_bytes * m >= l1_bytes:
            beyond = True
    if len(ix) < 3 or not beyond:
        return None
    s = top_three_slope(ix, iy)
    return s if s is not None and s < above else None


def interrupted(x, y, a):
    """measure.cpp's interrupted_sizes: the sizes whose (step - a)/m exceeds 3x the median over 32+ lines."""
    per = sorted((t - a) / m for m, t in zip(x, y) if m >= 32)
    if not per:
        return set()
    n = len(per)
    med = per[n // 2] if n % 2 else (per[n // 2 - 1] + per[n // 2]) / 2
    return {m for m, t in zip(x, y) if m > 0 and (t - a) / m > 3 * med}


def first_link(text, step, ring):
    """(x, y) of the first link's sweep of `step` ("reduction", ...): one reader, or the ring's (t, x, y)."""
    name = None
    out = []
    t = None
    if ring:
        pat = re.compile(r'\] (.+?): t=(\d+), m=(\d+) lines each: ([\d.]+) ns per ' + re.escape(step) + r' step')
    else:
        pat = re.compile(r'\] (.+?): m=(\d+) lines: ([\d.]+) ns per ' + re.escape(step) + r' step')
    for line in text.splitlines():
        m = pat.search(line)
        if not m:
            continue
        if name is None:
            name = m.group(1)
        if m.group(1) != name:
            break
        if ring:
            t = int(m.group(2))
            out.append((float(m.group(3)), float(m.group(4))))
        else:
            out.append((float(m.group(2)), float(m.group(3))))
    return t, [a for a, _ in out], [b for _, b in out]


def logged(text, pattern):
    m = re.search(pattern, text)
    return float(m.group(1)) if m else None


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    log, pin, pout, l1 = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    prefix = sys.argv[5] if len(sys.argv) == 6 else ''
    text = (gzip.open if log.endswith('.gz') else open)(log, 'rt').read()
    lines = open(pin).read().splitlines(keepends=True)
    value = {}
    for ln in lines:
        k = ln.split()
        if len(k) == 2 and not ln.startswith('#'):
            value[k[0]] = k[1]

    def key(k, default=0.0):
        return float(value.get(prefix + k, default))

    a = key('alpha.a')
    near_line, near_lines = key('near_line'), key('near_lines')
    slopes = {}
    for step, one, buffers in (('reduction', 'b', 2), ('third-buffer reduction', 'r', 3)):
        _, x, y = first_link(text, step, False)
        l2 = logged(text, r'split at the L2: ' + one + r'_l2 = ([\d.]+) ns/line')
        if not x or l2 is None:
            sys.exit(f'profile23.py: no {step} sweep or no split at the L2 in the log')
        drop = interrupted(x, y, a)
        kx = [m for m in x if m not in drop]
        ky = [t for m, t in zip(x, y) if m not in drop]
        slopes[one] = split_at_l1(kx, ky, buffers * LINE / 2, l1 / 2, l1, near_line, near_lines, l2)
    t, x, y = first_link(text, 'third-buffer reduction of own slices', True)
    slice_l2 = logged(text, r'split at the L2: R_slices_l2 = ([\d.]+) ns/line')
    slices = None
    if x and slice_l2 is not None:
        s = split_at_l1(x, y, 3 * LINE, SLICE_FOLD_L1_SHARE * l1, l1, key('slice_near_line'),
                        key('slice_near_lines'), slice_l2 * t)
        slices = s / t if s is not None else None
    b1, r1 = slopes['b'], slopes['r']
    print(f'profile23.py: {log}: b_l1 {b1}, r_l1 {r1}, R_slices_l1 {slices}', file=sys.stderr)
    add = {}
    if b1 is not None and r1 is not None:
        add = {'b_l1': b1, 'r_l1': max(r1, b1)}
        if slices is not None:
            add['R_slices_l1'] = slices
    def own(k):
        """Whether key k is of this state (another state's keys carry a stateN. prefix)."""
        return k.startswith(prefix) and not re.match(r'state\d+\.', k[len(prefix):])

    out = []
    for ln in lines:
        k = ln.split()
        if len(k) == 2 and k[0] == prefix + 'format':
            ln = f'{prefix}format 22\n'
        out.append(ln)
        if len(k) == 2 and own(k[0]) and k[0].endswith('.R_slices_l2'):
            link = k[0][:-len('.R_slices_l2')]
            out += [f'{link}.{f} {v:.6g}\n' for f, v in add.items()]
    if add:
        out.insert(0, f'# {prefix}in-L1 costs fitted by bench/coll/profile23.py from {log.split("/")[-1]} '
                      f'(L1d {l1} bytes): ' + ', '.join(f'{f} {v:.3f}' for f, v in add.items()) + '\n')
    open(pout, 'w').writelines(out)


if __name__ == '__main__':
    main()
