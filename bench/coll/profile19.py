#!/usr/bin/env python3
"""profile19.py - a recorded format 18 profile as format 19, from its calibration's log.

hmpi-calibrate 19 splits its slices ring at the L2 (docs/model.md, "Slice
folds in the L2s"): R_slices_l2 on every link with R_slices, and
slice_near_line, slice_near_lines. A profile calibrated before has the
single fit only, but its log has every size of alpha's slices ring. This
applies the same split (split_slices_at_l2, tools/hmpi-calibrate/measure.cpp)
to the logged ring, so that a recorded run can be replayed
(bench/coll/replay.sh) with the model it would get now. The recorded runs
have one cache domain: every link gets alpha's R_slices_l2.

usage: bench/coll/profile19.py LOG[.gz] PROFILE_IN PROFILE_OUT L2_BYTES
"""
import gzip
import re
import statistics as st
import sys

SHARE = 0.75  # kSliceFoldL2Share, collectives/model/params.hpp
BUFFERS = 3   # the slices kernel's: its own slice, its neighbour's, the result

log, pin, pout, l2 = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
text = (gzip.open if log.endswith('.gz') else open)(log, 'rt').read().splitlines()
ring, t = [], None
for ln in text:
    m = re.search(r'\(alpha\): t=(\d+), m=(\d+) lines each: ([\d.]+) ns per third-buffer reduction of own slices step',
                  ln)
    if m:
        t = int(m.group(1))
        ring.append((int(m.group(2)), float(m.group(3))))
if not ring:
    sys.exit('profile19.py: no slices ring in the log')
inl2 = [(m, y) for m, y in ring if BUFFERS * m * 64 <= SHARE * l2]
if len(inl2) < 6 or not any(BUFFERS * m * 64 >= l2 for m, _ in ring):
    sys.exit('profile19.py: the slices ring does not split at the L2')
xs, ys = [m for m, _ in inl2[-3:]], [y for _, y in inl2[-3:]]
mx, my = st.mean(xs), st.mean(ys)
slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
a0 = inl2[0][1] - slope * inl2[0][0]
per_line = [(y - a0) / m - slope for m, y in inl2 if 32 <= m <= 256]
total = [y - a0 - slope * m for m, y in inl2 if 256 <= m <= 1024]
line = st.median(per_line) if per_line else 0
excess = st.median(total) if total else 0
r_slices_l2 = slope / t
out, links = [], []
for ln in open(pin):
    key = ln.split(' ')[0]
    if ln.startswith('format '):
        ln = 'format 19\n'
    elif key.endswith('.R_slices') and not ln.startswith('#'):
        links.append(key.rsplit('.', 1)[0])
    out.append(ln)
out += [f'{link}.R_slices_l2 {r_slices_l2:.6g}\n' for link in links]
if line > 0 and excess > 0:
    out.append(f'slice_near_line {line:.6g}\nslice_near_lines {excess / line:.6g}\n')
out.insert(1, f'# format 19 from {log} by bench/coll/profile19.py\n')
open(pout, 'w').writelines(out)
print(pout, f'R_slices_l2={r_slices_l2:.3f} slice_near_line={line:.3f} '
      f'slice_near_lines={excess / line if line > 0 and excess > 0 else 0:.0f}')
