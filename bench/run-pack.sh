#!/usr/bin/env bash
# run-pack.sh - MPI_Pack of strided doubles (vector types with block length
# 1 and 4): HMPI vs Open MPI vs MPICH, each against the hand-written gather
# loop in the same program.
#
# Builds bench/pack.c with HMPI's hmpicc, mpicc.openmpi and mpicc.mpich (same
# flags; a missing one is skipped with a note), runs every variant ROUNDS
# times round-robin on one rank pinned to one CPU (the order rotates every
# round, so machine noise hits all alike), takes the median per size over
# the rounds and prints one table (docs/datatypes.md explains the columns).
#
# usage: bench/run-pack.sh [--quick] [--out DIR] [--rounds N]
#   --quick      sizes up to 4 MiB, fewer repetitions
#   --out DIR    output directory (default bench/results/pack): report.txt,
#                pack.csv, raw/ (every run's CSV and stderr), bin/
#   --rounds N   rounds (default 5, --quick 3)
# environment:
#   HMPI_BUILD    HMPI build directory (default build)
#   BENCH_CFLAGS  compiler flags (default "-O2 -std=c11 -Wall -Wextra")
#   RUN_TIMEOUT   seconds one run may take (default 300)
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)

quick=0
out="$here/results/pack"
rounds=""
while [ $# -gt 0 ]; do
    case "$1" in
    --quick) quick=1 ;;
    --out) [ $# -ge 2 ] || { echo "run-pack: --out needs a directory" >&2; exit 2; }; out=$2; shift ;;
    --rounds) [ $# -ge 2 ] || { echo "run-pack: --rounds needs a number" >&2; exit 2; }; rounds=$2; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run-pack: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
if [ $quick -eq 1 ]; then
    : "${rounds:=3}"
    args=(-c -m 4M -r 7 -t 1)
else
    : "${rounds:=5}"
    args=(-c -m 64M -r 15 -t 2)
fi
case "$rounds" in ''|*[!0-9]*|0) echo "run-pack: bad --rounds '$rounds'" >&2; exit 2 ;; esac
read -r -a cflags <<<"${BENCH_CFLAGS:--O2 -std=c11 -Wall -Wextra}"
tmo=${RUN_TIMEOUT:-300}

hb=${HMPI_BUILD:-build}
if [ "${hb#/}" = "$hb" ]; then
    if [ -d "$hb" ]; then hb=$(cd "$hb" && pwd); else hb="$repo/$hb"; fi
fi
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
bindir="$out/bin" rawdir="$out/raw"
rm -rf "$bindir" "$rawdir"
mkdir -p "$bindir" "$rawdir"
exec > >(tee "$out/report.txt") 2>&1

cpu=$(taskset -pc $$ 2>/dev/null | sed -n 's/.*list: *\([0-9]*\).*/\1/p')
pin=()
[ -n "$cpu" ] && command -v taskset >/dev/null && pin=(taskset -c "$cpu")

# name|compiler|launcher words (the program and its arguments follow)
variants=()
notes=()
if [ -x "$hb/bin/hmpicc" ] && [ -x "$hb/bin/hmpirun" ]; then
    variants+=("hmpi|$hb/bin/hmpicc|$hb/bin/hmpirun -np 1 --bind-to none")
else
    notes+=("HMPI skipped: $hb/bin/hmpicc or hmpirun not found (set HMPI_BUILD)")
fi
if command -v mpicc.openmpi >/dev/null; then
    variants+=("ompi|mpicc.openmpi|env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi --allow-run-as-root --bind-to none -np 1")
else
    notes+=("Open MPI skipped: mpicc.openmpi not found")
fi
if command -v mpicc.mpich >/dev/null; then
    variants+=("mpich|mpicc.mpich|mpiexec.mpich -n 1")
else
    notes+=("MPICH skipped: mpicc.mpich not found")
fi

echo "# run-pack: $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg); pinned with: ${pin[*]:-(nothing)}"
for n in "${notes[@]}"; do echo "# note: $n"; done

built=()
for v in "${variants[@]}"; do
    IFS='|' read -r name cc launch <<<"$v"
    exe="$bindir/pack-$name"
    echo "# build: $cc ${cflags[*]} -o $exe $here/pack.c"
    if ! $cc "${cflags[@]}" -o "$exe" "$here/pack.c" >"$rawdir/$name.build.log" 2>&1; then
        echo "# note: $name skipped: build failed (raw/$name.build.log)"
        continue
    fi
    built+=("$v")
done

for ((r = 0; r < rounds; r++)); do
    n=${#built[@]}
    for ((i = 0; i < n; i++)); do
        IFS='|' read -r name cc launch <<<"${built[$(((i + r) % n))]}"
        exe="$bindir/pack-$name"
        read -r -a L <<<"$launch"
        [ $r -eq 0 ] && echo "# run: ${pin[*]} ${L[*]} $exe ${args[*]}"
        timeout -k 10 "$tmo" "${pin[@]}" "${L[@]}" "$exe" "${args[@]}" >"$rawdir/$name.r$r.csv" 2>"$rawdir/$name.r$r.err" ||
            echo "# note: $name round $r failed (raw/$name.r$r.err)"
    done
done
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$rawdir" "$out/pack.csv" "${built[@]%%|*}" <<'EOF'
import csv, statistics, sys, glob, os
rawdir, out_csv, names = sys.argv[1], sys.argv[2], sys.argv[3:]
data = {}  # name -> size -> column -> [values over rounds]
for name in names:
    for f in glob.glob(os.path.join(rawdir, name + ".r*.csv")):
        rows = [l for l in open(f) if l.strip() and not l.startswith("#")]
        for row in csv.DictReader(rows):
            d = data.setdefault(name, {}).setdefault(int(row["size"]), {})
            for k, v in row.items():
                if k != "size": d.setdefault(k, []).append(float(v))
def med(name, size, col):
    try: return statistics.median(data[name][size][col])
    except KeyError: return None
sizes = sorted({s for n in data for s in data[n]})
fmt = lambda v, w=7, p=2: ("%*.*f" % (w, p, v)) if v is not None else "%*s" % (w, "-")
ratio = lambda a, b: (a / b) if a is not None and b else None
present = [n for n in names if n in data]
cols = ("loop1", "pack1", "loop4", "pack4")
with open(out_csv, "w") as f:
    f.write(",".join(["size"] + [f"{n}_{k}_GBps" for n in present for k in cols]) + "\n")
    for s in sizes:
        f.write(",".join([str(s)] + ["%.3f" % v if (v := med(n, s, f"{k}_GBps")) is not None else ""
                                     for n in present for k in cols]) + "\n")
for bl in ("1", "4"):
    print(f"\nMPI_Pack of a vector of doubles, block length {bl}: GB/s of packed data (median over rounds)")
    head = "%10s %8s " % ("size[B]", "loop") + " ".join("%8s" % n for n in present)
    head += " %9s %9s %9s" % ("hmpi/loop", "hmpi/ompi", "hmpi/mpich")
    print(head)
    for s in sizes:
        loop = med("hmpi", s, f"loop{bl}_GBps") if "hmpi" in data else None
        h = med("hmpi", s, f"pack{bl}_GBps") if "hmpi" in data else None
        line = "%10d %8s " % (s, fmt(loop, 8)) + " ".join(fmt(med(n, s, f"pack{bl}_GBps"), 8) for n in present)
        line += " %9s %9s %9s" % (fmt(ratio(h, loop), 9),
                                  fmt(ratio(h, med("ompi", s, f"pack{bl}_GBps") if "ompi" in data else None), 9),
                                  fmt(ratio(h, med("mpich", s, f"pack{bl}_GBps") if "mpich" in data else None), 9))
        print(line)
print("\nloop = the hand-written gather inside the HMPI program (each program's own loop is in pack.csv).")
print("hmpi/loop = HMPI MPI_Pack speed / loop speed; hmpi/ompi, hmpi/mpich > 1 means HMPI is faster.")
EOF
