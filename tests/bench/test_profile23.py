#!/usr/bin/env python3
"""bench/coll/profile23.py refits a recorded calibration's sweeps with its own
copy of hmpi-calibrate's split at the L1 (split_at_l1, measure.cpp). The
same sweeps as calibrate_test.cpp's "the sweeps split at the L1" must give
the same slopes here, so that the two cannot drift apart."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, '..', '..', 'bench', 'coll', 'profile23.py')
# Stop 59's fast-state calibration on the 2-core EPYC guest (calibrate_test.cpp's sweeps).
XB = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 92160]
B = [50, 50, 50, 50, 51, 70, 70, 130, 220, 420, 1022, 1963, 3916, 7812, 17566, 38638, 80661, 111196]
XR = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 61440]
R = [50, 40, 41, 31, 50, 61, 70, 140, 211, 671, 1372, 2765, 5218, 11637, 25858, 50710.5, 85317]
XS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 30720]
S = [61, 61, 71, 71, 71, 81, 111, 161, 291, 722, 1553, 3085, 6000, 12818, 28122, 54847.5]
PROFILE = """format 21
alpha.a 40.55
alpha.R_slices_l2 0.722063
beta.R_slices_l2 0.722063
state2.format 21
state2.alpha.R_slices_l2 1.5
"""


def log_text(b_l2=0.952, r_l2=1.244, slices_l2=0.722):
    out = []
    for x, y in zip(XB, B):
        out.append(f'hmpi-calibrate: [1/22] L3 (alpha): m={x} lines: {y:.1f} ns per reduction step ({y / x:.2f} ns/line)')
    out.append(f'hmpi-calibrate: [1/22] L3 (alpha): split at the L2: b_l2 = {b_l2:.3f} ns/line up to half an L2 per core')
    for x, y in zip(XR, R):
        out.append(f'hmpi-calibrate: [4/22] L3 (alpha): m={x} lines: {y:.1f} ns per third-buffer reduction step (x)')
    out.append(f'hmpi-calibrate: [4/22] L3 (alpha): split at the L2: r_l2 = {r_l2:.3f} ns/line up to half an L2 per core')
    for x, y in zip(XS, S):
        out.append(f'hmpi-calibrate: [7/22] L3 (alpha): t=2, m={x} lines each: {y:.1f} ns per third-buffer reduction '
                   f'of own slices step (x)')
    out.append(f'hmpi-calibrate: [7/22] L3 (alpha): split at the L2: R_slices_l2 = {slices_l2:.3f} ns/line up to 75%')
    return '\n'.join(out) + '\n'


def refit(log, prefix=''):
    with tempfile.TemporaryDirectory() as d:
        lp, pin, pout = (os.path.join(d, n) for n in ('log', 'in', 'out'))
        with open(lp, 'w') as f:
            f.write(log)
        with open(pin, 'w') as f:
            f.write(PROFILE)
        subprocess.run([sys.executable, SCRIPT, lp, pin, pout, '49152'] + ([prefix] if prefix else []), check=True,
                       capture_output=True)
        return {k: v for k, v in (ln.split() for ln in open(pout) if not ln.startswith('#') and len(ln.split()) == 2)}


def near(a, b, rel):
    return abs(float(a) - b) <= rel * abs(b)


failures = []


def check(what, ok):
    if not ok:
        failures.append(what)


got = refit(log_text())
check(f'b_l1 {got.get("alpha.b_l1")} ~ 0.7701', near(got.get('alpha.b_l1', 0), 0.7701, 0.001))
# r_l1's fit, 0.7087, is below b_l1: raised to it, as hmpi-calibrate's orderings do.
check(f'r_l1 {got.get("alpha.r_l1")} ~ b_l1', near(got.get('alpha.r_l1', 0), 0.7701, 0.001))
check(f'R_slices_l1 {got.get("alpha.R_slices_l1")} ~ 0.4129', near(got.get('alpha.R_slices_l1', 0), 0.4129, 0.001))
check('beta too', got.get('beta.b_l1') == got.get('alpha.b_l1'))
check('format 22', got.get('format') == '22')
check('the other state untouched', 'state2.alpha.b_l1' not in got and got.get('state2.format') == '21')
# An in-L2 slope below the in-L1 one: no in-L1 keys written.
low = refit(log_text(b_l2=0.5))
check('b not cheaper in the L1: no keys', not any(k.endswith('_l1') for k in low))
# The second state's keys only, with its prefix.
st2 = refit(log_text(), 'state2.')
check('state2 keys', 'state2.alpha.b_l1' in st2 and 'alpha.b_l1' not in st2 and st2.get('state2.format') == '22')

if failures:
    print('FAIL: ' + '; '.join(failures))
    sys.exit(1)
print('ok: profile23.py splits at the L1 as split_at_l1 does')
