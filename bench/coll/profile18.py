#!/usr/bin/env python3
"""profile18.py - a recorded format 17 profile as format 18, from its calibration's log.

hmpi-calibrate (format 18) splits its one-reader sweeps at the L2
(docs/model.md, "Where a step's lines are"); a profile calibrated before
has the single fits only, but its log has every size of the sweeps. This
applies the same split to the logged sweeps, so that a recorded run can be
replayed (bench/coll/replay.sh) with the model it would get now:
b, c, r past the L2 and b_l2, c_l2, r_l2 within, on every link of the
profile (they are alpha's: the recorded runs have one cache domain), and
near_line, near_lines. The congested costs stay as recorded.

usage: bench/coll/profile18.py LOG[.gz] PROFILE_IN PROFILE_OUT L2_BYTES
"""
import gzip
import re
import statistics as st
import sys

log, pin, pout, l2 = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
text = (gzip.open if log.endswith('.gz') else open)(log, 'rt').read().splitlines()
sweeps, a = {}, None
for ln in text:
    m = re.search(r'\(alpha\): m=(\d+) lines: ([\d.]+) ns per (reduction|third-buffer reduction|copy) step', ln)
    if m:
        sweeps.setdefault(m.group(3), []).append((int(m.group(1)), float(m.group(2))))
    m = re.search(r'\(alpha\): handoff [\d.]+ ns; fit a = ([\d.]+) ns', ln)
    if m:
        a = float(m.group(1))
buffers = {'reduction': 2, 'third-buffer reduction': 3, 'copy': 2}


def per_core(kind, m):
    return buffers[kind] * m * 64 / 2


def split(kind):
    """(l2 slope, intercept, near_line) as hmpi-calibrate's split_at_l2."""
    pts = sweeps[kind]
    inl2 = [(m, t - a) for m, t in pts if per_core(kind, m) <= l2 / 2]
    if len(inl2) < 6 or not any(per_core(kind, m) >= l2 for m, _ in pts):
        sys.exit(f'profile18.py: the {kind} sweep does not split at the L2')
    xs, ys = [m for m, _ in inl2[-3:]], [x for _, x in inl2[-3:]]
    mx, my = st.mean(xs), st.mean(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    small = [x / m - slope for m, x in inl2 if 32 <= m <= 256]
    return slope, my - slope * mx, st.median(small) if small else 0


slope_b, excess, near_line = split('reduction')
if excess <= 0 or near_line <= 0:
    excess = near_line = 0


def past(kind):
    return st.median([(t - a - excess) / m for m, t in sweeps[kind] if per_core(kind, m) >= l2])


v = {'b': past('reduction'), 'r': past('third-buffer reduction'), 'c': past('copy'),
     'b_l2': slope_b, 'r_l2': split('third-buffer reduction')[0], 'c_l2': split('copy')[0]}
# hmpi-calibrate's orderings: a copy moves a line for no more than a
# reduction, a third buffer for no less.
v['r'], v['c'] = max(v['r'], v['b']), min(v['c'], v['b'])
v['r_l2'], v['c_l2'] = max(v['r_l2'], v['b_l2']), min(v['c_l2'], v['b_l2'])
out, links = [], []
for ln in open(pin):
    key = ln.split(' ')[0]
    if ln.startswith('format '):
        ln = 'format 18\n'
    elif '.' in key and not ln.startswith('#'):
        link, field = key.rsplit('.', 1)
        if link not in links:
            links.append(link)
        if field in ('b', 'r', 'c'):
            ln = f'{key} {v[field]:.6g}\n'
    out.append(ln)
for link in links:
    out += [f'{link}.{f} {v[f]:.6g}\n' for f in ('b_l2', 'c_l2', 'r_l2')]
if excess > 0:
    out.append(f'near_line {near_line:.6g}\nnear_lines {excess / near_line:.6g}\n')
out.insert(1, f'# format 18 from {log} by bench/coll/profile18.py\n')
open(pout, 'w').writelines(out)
near_lines = excess / near_line if near_line else 0
print(pout, ' '.join(f'{k}={x:.3f}' for k, x in v.items()), f'near_line={near_line:.3f} near_lines={near_lines:.0f}')
