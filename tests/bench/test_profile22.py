#!/usr/bin/env python3
"""bench/coll/profile22.py refits a recorded calibration's copy-in sweep with
its own copy of hmpi-calibrate's fit (fit_rewrite, measure.cpp). The same
sweeps as calibrate_test.cpp's "the copy-in's rewrite" must give the same
values here, so that the two cannot drift apart."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, '..', '..', 'bench', 'coll', 'profile22.py')
LINES = [8, 16, 32, 64, 128, 256]
PROFILE = """format 21
rewrite_line 2.21875
rewrite_first 56.2
rewrite_knee 32
rewrite_line_beyond 2.21875
rewrite_all_line 1.57
"""


def refit(times, profile=PROFILE):
    with tempfile.TemporaryDirectory() as d:
        log, pin, pout = (os.path.join(d, n) for n in ('log', 'in', 'out'))
        with open(log, 'w') as f:
            for m, t in zip(LINES, times):
                f.write(f'hmpi-calibrate: [11/22] rewrite_line: m={m} lines: {t:.1f} ns ({t / m:.2f} ns/line)\n')
        with open(pin, 'w') as f:
            f.write(profile)
        subprocess.run([sys.executable, SCRIPT, log, pin, pout], check=True, capture_output=True)
        out = {}
        for ln in open(pout):
            f = ln.split()
            if len(f) == 2:
                out[f[0]] = float(f[1]) if f[0] != 'format' else f[1]
        return out


def near(a, b, rel):
    return abs(a - b) <= rel * abs(b)


failures = []


def check(what, ok):
    if not ok:
        failures.append(what)


# Stop 59's fast state on the EPYC guest: a 1.35x rise is no knee; the one slope.
epyc = refit([60, 60, 71, 101, 140, 211])
check('epyc: no knee', 'rewrite_knee' not in epyc and 'rewrite_line_beyond' not in epyc)
check(f'epyc: rewrite_line {epyc.get("rewrite_line")} ~ 0.65', near(epyc.get('rewrite_line', 0), 0.65, 0.01))
check('epyc: other keys kept', epyc.get('rewrite_first') == 56.2 and epyc.get('rewrite_all_line') == 1.57)
# Stop 29's guest: a knee at 32 lines, the knee's copy-in per line below it, about 7 ns past it.
stalls = refit([80, 80, 101, 330, 780, 1700])
check('stalls: knee at 32', stalls.get('rewrite_knee') == 32)
check('stalls: rewrite_line 101/32', near(stalls.get('rewrite_line', 0), 101 / 32, 1e-4))
check(f'stalls: beyond {stalls.get("rewrite_line_beyond")} in 6.5-7.5', 6.5 < stalls.get('rewrite_line_beyond', 0) < 7.5)
# A knee whose slope past it (4 ns) is below the knee's copy-in per line: the slope.
high = refit([200, 204, 212, 340, 596, 1108])
check('high_first: beyond 4', near(high.get('rewrite_line_beyond', 0), 4.0, 1e-3))
# A profile without a knee gains one where the sweep shows it.
noknee = refit([80, 80, 101, 330, 780, 1700], PROFILE.replace('rewrite_knee 32\n', '').replace(
    'rewrite_line_beyond 2.21875\n', ''))
check('knee added', noknee.get('rewrite_knee') == 32 and 'rewrite_line_beyond' in noknee)

if failures:
    print('FAIL: ' + '; '.join(failures))
    sys.exit(1)
print('ok: profile22.py fits as fit_rewrite does')
