#!/usr/bin/env python3
"""profile20.py - a recorded profile with hmpi-calibrate 20's rewrite_line_beyond, from its calibration's log.

Up to hmpi-calibrate 19 a copy-in sweep with a knee got
rewrite_line_beyond = max(slope past the knee, rewrite_line), where
rewrite_line is the knee's whole copy-in per line, first store's round trip
included; hmpi-calibrate 20 keeps the slope past the knee (fit_rewrite,
tools/hmpi-calibrate/measure.cpp; docs/model.md, "The copy-in's knee, past
it"). The log has every size of the sweep, so this applies the same fit to
it and writes the profile with the new value, so that a recorded run can
be replayed (bench/coll/replay.sh) with the model it would get now. Only a
profile whose rewrite_knee the log's sweep gives is changed.

usage: bench/coll/profile20.py LOG[.gz] PROFILE_IN PROFILE_OUT [KEY_PREFIX]
  KEY_PREFIX  the keys' prefix in PROFILE_IN (state2. for the second state
              of a combined profile; default none)
"""
import gzip
import re
import sys


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
        sys.exit('profile20.py: no rewrite_line sweep in the log')
    x, y = [m for m, _ in sweep], [t for _, t in sweep]
    _, whole, best = fit_of(x, y)
    knee, beyond = 0, 0.0
    for k in range(2, len(x) - 2):
        _, s1, e1 = fit_of(x[:k + 1], y[:k + 1])
        _, s2, e2 = fit_of(x[k:], y[k:])
        if s1 > 0 and s2 >= 1.25 * s1 and max(e1, e2) < best:
            knee, beyond, best = k, s2, max(e1, e2)
    lines = open(pin).read().splitlines(keepends=True)
    key_knee, key_beyond = prefix + 'rewrite_knee', prefix + 'rewrite_line_beyond'
    recorded = {ln.split()[0]: ln.split()[1] for ln in lines if len(ln.split()) == 2}
    if not knee or key_knee not in recorded or float(recorded[key_knee]) != x[knee]:
        sys.exit(f'profile20.py: the log\'s sweep gives no knee at {key_knee} {recorded.get(key_knee)}')
    new = max(beyond, 0.1)
    out = []
    for ln in lines:
        f = ln.split()
        if len(f) == 2 and f[0] == key_beyond:
            out.append(f'{key_beyond} {new:g}\n')
        else:
            out.append(ln)
    open(pout, 'w').write(''.join(out))
    print(f'{key_beyond}: {recorded[key_beyond]} -> {new:.4g} ns/line past {x[knee]:.0f} lines')


if __name__ == '__main__':
    main()
