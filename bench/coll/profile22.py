#!/usr/bin/env python3
"""profile22.py - a recorded profile with hmpi-calibrate 22's copy-in costs, from its calibration's log.

Up to hmpi-calibrate 19 a copy-in sweep with a knee got
rewrite_line_beyond = max(slope past the knee, rewrite_line), where
rewrite_line is the knee's whole copy-in per line, first store's round trip
included; the first fix (03a57ba) kept the slope past the knee;
hmpi-calibrate 22 also wants a knee to double a line's cost (it took 1.25x before), else one
slope over all sizes is rewrite_line (fit_rewrite,
tools/hmpi-calibrate/measure.cpp; docs/model.md, "The copy-in past its
knee"). The log has every size of the sweep, so this applies the same fit
to it and writes the profile with rewrite_line, rewrite_knee and
rewrite_line_beyond as hmpi-calibrate 22 makes them (the knee's two lines
dropped where there is none), so that a recorded run can be replayed
(bench/coll/replay.sh) with the model it would get now.

usage: bench/coll/profile22.py LOG[.gz] PROFILE_IN PROFILE_OUT [KEY_PREFIX]
  KEY_PREFIX  the keys' prefix in PROFILE_IN (state2. for the second state
              of a combined profile; default none)
"""
import gzip
import re
import sys

KNEE_RATIO = 2.0  # hmpi-calibrate 22 (kRewriteKneeRatio, measure.cpp)


def fit_line(x, y):
    """hmpi-calibrate's fit_line: least squares with weights 1/y^2; (a, b, worst relative residual)."""
    s = sx = sy = sxx = sxy = 0.0
    for xi, yi in zip(x, y):
        w = 1.0 / (yi * yi)
        s += w
        sx += w * xi
        sy += w * yi
        sxx += w * xi * xi
        sxy += w * xi * yi
    det = s * sxx - sx * sx
    b = (s * sxy - sx * sy) / det if det else 0.0
    a = (sy - b * sx) / s
    return a, b, max(abs(yi - (a + b * xi)) / yi for xi, yi in zip(x, y))


def robust_fit(x, y):
    a, b, err = fit_line(x, y)
    for _ in range(2):
        if err <= 0.5:
            break
        keep = [(xi, yi) for xi, yi in zip(x, y) if abs(yi - (a + b * xi)) / yi <= 0.5]
        if len(keep) < 3 or len(keep) == len(x):
            break
        x, y = [k[0] for k in keep], [k[1] for k in keep]
        a, b, err = fit_line(x, y)
    return a, b, err


def fit_of(x, y):
    return robust_fit(x, y) if len(x) > 2 else fit_line(x, y)


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    log, pin, pout = sys.argv[1:4]
    prefix = sys.argv[4] if len(sys.argv) == 5 else ''
    text = (gzip.open if log.endswith('.gz') else open)(log, 'rt').read()
    sweep = [(float(m), float(t)) for m, t in re.findall(r'rewrite_line: m=(\d+) lines: ([\d.]+) ns', text)]
    if len(sweep) < 5:
        sys.exit('profile22.py: no rewrite_line sweep in the log')
    x, y = [m for m, _ in sweep], [t for _, t in sweep]
    _, whole, best = fit_of(x, y)
    knee, beyond = 0, 0.0
    for k in range(2, len(x) - 2):
        _, s1, e1 = fit_of(x[:k + 1], y[:k + 1])
        _, s2, e2 = fit_of(x[k:], y[k:])
        if s1 > 0 and s2 >= KNEE_RATIO * s1 and max(e1, e2) < best:
            knee, beyond, best = k, s2, max(e1, e2)
    line = max(y[knee] / x[knee] if knee else whole, 0.1)
    lines = open(pin).read().splitlines(keepends=True)
    keys = {prefix + k: k for k in ('rewrite_line', 'rewrite_knee', 'rewrite_line_beyond')}
    recorded = {ln.split()[0]: ln.split()[1] for ln in lines if len(ln.split()) == 2}
    if prefix + 'rewrite_line' not in recorded:
        sys.exit(f'profile22.py: no {prefix}rewrite_line in {pin}')
    new = {'rewrite_line': f'{line:g}'}
    if knee:
        new.update(rewrite_knee=f'{x[knee]:g}', rewrite_line_beyond=f'{max(beyond, 0.1):g}')
    out, done = [], set()
    for ln in lines:
        f = ln.split()
        if len(f) == 2 and f[0] in keys:
            k = keys[f[0]]
            if k in new:
                out.append(f'{f[0]} {new[k]}\n')
                done.add(k)
            continue  # a knee's line where the fit has none
        out.append(ln)
    for k in new:
        if k not in done:  # a knee the recorded profile did not have: after rewrite_line
            at = next(i for i, ln in enumerate(out) if ln.split()[:1] == [prefix + 'rewrite_line'])
            out.insert(at + 1, f'{prefix}{k} {new[k]}\n')
    open(pout, 'w').write(''.join(out))
    was = ', '.join(f'{k} {recorded.get(prefix + k, "-")}' for k in ('rewrite_line', 'rewrite_knee', 'rewrite_line_beyond'))
    now = ', '.join(f'{k} {v}' for k, v in new.items())
    print(f'{prefix or ""}copy-in: {was} -> {now}')

if __name__ == '__main__':
    main()
