#!/usr/bin/env python3
"""How often hmpi-info's choice is within 10% of the fastest forced algorithm.

Reads model-sweep.sh's CSVs, plain or gzipped (several runs: medians per
algorithm and point), asks build/bin/hmpi-info for its choice at each rank count and size
(with the profile HMPI_PROFILE names, else this machine's), and prints the
count, the geometric mean of chosen / fastest and, with -v, the misses.
Run from the repository root:
    python3 docs/results/oversubscribed/model-score.py [-v] RUN.csv...
"""
import collections
import csv
import gzip
import math
import statistics
import subprocess
import sys

args = [a for a in sys.argv[1:] if a != '-v']
runs = collections.defaultdict(lambda: collections.defaultdict(list))
for path in args:
    for row in csv.reader(gzip.open(path, 'rt') if path.endswith('.gz') else open(path)):
        runs[(row[1], int(row[3]), int(row[2]))][row[0].split(':', 1)[1]].append(float(row[4]))

choice = {}
for coll, np in sorted({(k[0], k[1]) for k in runs}):
    sizes = sorted({k[2] for k in runs if k[:2] == (coll, np)})
    asked = '8' if coll == 'barrier' else ','.join(str(s) for s in sizes)
    out = subprocess.run(['build/bin/hmpi-info', '--model', coll, '-n', str(np), '--sizes', asked, '--csv'],
                         capture_output=True, text=True, check=True).stdout
    for row in csv.DictReader(out.splitlines()):
        if row['chosen'] == '1':
            choice[(coll, np, 0 if coll == 'barrier' else int(row['bytes']))] = row['algorithm']

within = total = 0
log_sum = 0.0
misses = []
for key in sorted(runs):
    forced = {a: statistics.median(v) for a, v in runs[key].items() if a != 'default'}
    fastest = min(forced, key=forced.get)
    chosen = choice.get(key)
    if chosen not in forced:
        continue
    ratio = forced[chosen] / forced[fastest]
    total += 1
    log_sum += math.log(ratio)
    if ratio <= 1.10:
        within += 1
    else:
        misses.append(f'  {key[0]} {key[1]} ranks {key[2]} B: {chosen} {ratio:.2f}x {fastest}')
print(f'chosen within 10% of the fastest forced algorithm: {within} of {total}; '
      f'geometric mean chosen / fastest {math.exp(log_sum / total):.3f}')
if '-v' in sys.argv:
    print('\n'.join(misses))
