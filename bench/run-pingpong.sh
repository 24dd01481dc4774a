#!/usr/bin/env bash
# run-pingpong.sh - HMPI vs Open MPI vs MPICH point-to-point comparison.
#
# Builds bench/pingpong.c with HMPI's hmpicc, mpicc.openmpi and mpicc.mpich
# (skipping, with a note, any that is missing) and bench/memcpy_bw.c with cc,
# then runs the whole set ROUNDS times round-robin (the order rotates every
# round) so machine noise hits every implementation alike, takes the median
# per size over the rounds and prints one comparison table.  Then an
# oversubscription section: HMPI at -np 8 on this machine's cores (ranks 0-1
# ping-pong, 6 ranks wait in MPI_Recv) and in pairs mode at -np 8, compared
# with HMPI at -np 2.
#
# usage: bench/run-pingpong.sh [--quick] [--out DIR] [--rounds N] [--oversub-ref] [--no-oversub]
#   --quick        smoke run: sizes up to 1 MiB, fewer repetitions (< 1 minute)
#   --out DIR      output directory (default bench/results); gets report.txt,
#                  pingpong.csv, oversub.csv, raw/ (every run's CSV and stderr), bin/
#   --rounds N     rounds of the interleaved set (default 5, --quick 3; the
#                  oversubscription set runs min(N, 3) rounds)
#   --oversub-ref  also run Open MPI and MPICH in the oversubscription section
#   --no-oversub   skip the oversubscription section
# environment:
#   HMPI_BUILD     HMPI build directory (default build, relative to the current
#                  directory if it exists there, else to the repository root)
#   HMPIRUN_FLAGS  extra hmpirun flags (default "--bind-to core")
#   BENCH_CFLAGS   compiler flags (default "-O2 -std=c11 -Wall -Wextra")
#   RUN_TIMEOUT    seconds one run may take before it is killed (default 180,
#                  --quick 60); a run that fails is not repeated in later rounds
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)

quick=0
out="$here/results"
rounds=""
oversub=1
oversub_ref=0
while [ $# -gt 0 ]; do
    case "$1" in
    --quick) quick=1 ;;
    --out) [ $# -ge 2 ] || { echo "run-pingpong: --out needs a directory" >&2; exit 2; }; out=$2; shift ;;
    --out=*) out=${1#--out=} ;;
    --rounds) [ $# -ge 2 ] || { echo "run-pingpong: --rounds needs a number" >&2; exit 2; }; rounds=$2; shift ;;
    --rounds=*) rounds=${1#--rounds=} ;;
    --oversub-ref) oversub_ref=1 ;;
    --no-oversub) oversub=0 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run-pingpong: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done

if [ $quick -eq 1 ]; then
    : "${rounds:=3}"
    pp_args=(-m 1M -r 7 -t 1)
    mc_args=(-m 1M -r 7 -t 1)
    ov_args=(-m 1K -r 5 -t 1 -w 10 -a)
else
    : "${rounds:=5}"
    pp_args=(-m 16M -r 15 -t 2)
    mc_args=(-m 16M -r 15 -t 2)
    ov_args=(-m 64K -r 9 -t 2 -w 50 -a)
fi
case "$rounds" in ''|*[!0-9]*|0) echo "run-pingpong: bad --rounds '$rounds'" >&2; exit 2 ;; esac
read -r -a cflags <<<"${BENCH_CFLAGS:--O2 -std=c11 -Wall -Wextra}"
read -r -a hmpirun_flags <<<"${HMPIRUN_FLAGS:---bind-to core}"
tmo=${RUN_TIMEOUT:-$([ $quick -eq 1 ] && echo 60 || echo 180)}

hb=${HMPI_BUILD:-build}
if [ "${hb#/}" = "$hb" ]; then
    if [ -d "$hb" ]; then hb=$(cd "$hb" && pwd); else hb="$repo/$hb"; fi
fi

mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
bindir="$out/bin"
rawdir="$out/raw"
rm -rf "$rawdir" "$bindir"
rm -f "$out/pingpong.csv" "$out/oversub.csv"
mkdir -p "$rawdir" "$bindir"
exec > >(tee "$out/report.txt") 2>&1
tee_pid=$!

q() { local s="" a; for a in "$@"; do s+="$(printf '%q' "$a") "; done; printf '%s' "${s% }"; }
note() { printf '# NOTE: %s\n' "$*"; }

echo "# run-pingpong.sh $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(uname -n), $(nproc) cores," \
    "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
ov_rounds=$(( rounds < 3 ? rounds : 3 ))
echo "# mode: $([ $quick -eq 1 ] && echo quick || echo full), $rounds interleaved rounds ($ov_rounds for oversubscription), output $out"
load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
echo "# load average at start: $load_start"
case "${load_start%% *}" in
[0-9]*) awk -v l="${load_start%% *}" -v c="$(nproc)" 'BEGIN { exit !(l > c / 2) }' &&
        echo "# WARNING: the machine is already busy; expect noisy numbers (interleaving spreads the noise evenly)" ;;
esac

# ---------------------------------------------------------------- build ----
declare -A ccmd               # per implementation: compiler
impls=()                       # implementations that built
note_lines=()

hmpicc="$hb/bin/hmpicc"
hmpirun="$hb/bin/hmpirun"
if [ -x "$hmpicc" ] && [ -x "$hmpirun" ]; then
    ccmd[hmpi]=$hmpicc
    impls+=(hmpi)
else
    note_lines+=("HMPI skipped: $hmpicc or $hmpirun not found (set HMPI_BUILD)")
fi
if command -v mpicc.openmpi >/dev/null && command -v mpirun.openmpi >/dev/null; then
    ccmd[ompi]=mpicc.openmpi
    impls+=(ompi)
else
    note_lines+=("Open MPI skipped: mpicc.openmpi / mpirun.openmpi not found")
fi
if command -v mpicc.mpich >/dev/null && command -v mpiexec.mpich >/dev/null; then
    ccmd[mpich]=mpicc.mpich
    impls+=(mpich)
else
    note_lines+=("MPICH skipped: mpicc.mpich / mpiexec.mpich not found")
fi
cc=${CC:-cc}

# launcher command for implementation $1 at $2 ranks -> array L
launcher() {
    local impl=$1 np=$2
    case $impl in
    hmpi)  L=("$hmpirun" -np "$np" "${hmpirun_flags[@]}") ;;
    ompi)  L=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi -np "$np")
           if [ "$np" -gt "$(nproc)" ]; then L+=(--oversubscribe --bind-to core:overload-allowed)
           else L+=(--bind-to core); fi
           L+=(--allow-run-as-root) ;;
    mpich) L=(mpiexec.mpich -n "$np" -bind-to core) ;;
    esac
}

first_cpu=$(taskset -pc $$ 2>/dev/null | sed -n 's/.*list: *\([0-9]*\).*/\1/p')
memcpy_cmd=("$bindir/memcpy_bw" -c -q "${mc_args[@]}")
if [ -n "$first_cpu" ] && command -v taskset >/dev/null; then memcpy_cmd=(taskset -c "$first_cpu" "${memcpy_cmd[@]}"); fi

echo "#"
echo "# commands:"
built=()
for impl in "${impls[@]}"; do
    cmd=("${ccmd[$impl]}" "${cflags[@]}" -o "$bindir/pingpong.$impl" "$here/pingpong.c")
    echo "#   $(q "${cmd[@]}")"
    if "${cmd[@]}" >"$rawdir/build.$impl.log" 2>&1; then
        built+=("$impl")
        if [ -s "$rawdir/build.$impl.log" ]; then
            note_lines+=("$impl build printed warnings, see $rawdir/build.$impl.log")
        fi
    else
        note_lines+=("$impl skipped: build failed: $(head -c 600 "$rawdir/build.$impl.log" | tr '\n' ' ')")
    fi
done
impls=("${built[@]+"${built[@]}"}")
cmd=("$cc" "${cflags[@]}" -o "$bindir/memcpy_bw" "$here/memcpy_bw.c")
echo "#   $(q "${cmd[@]}")"
have_memcpy=0
if "${cmd[@]}" >"$rawdir/build.memcpy.log" 2>&1; then have_memcpy=1
else note_lines+=("memcpy_bw skipped: build failed: $(head -c 600 "$rawdir/build.memcpy.log" | tr '\n' ' ')"); fi

# the set of runs: name -> command
declare -A runcmd
main_set=()
for impl in "${impls[@]}"; do
    launcher "$impl" 2
    runcmd[main.$impl]="$(q "${L[@]}" "$bindir/pingpong.$impl" -c -q "${pp_args[@]}")"
    main_set+=("main.$impl")
done
if [ $have_memcpy -eq 1 ]; then
    runcmd[main.memcpy]="$(q "${memcpy_cmd[@]}")"
    main_set+=("main.memcpy")
fi
over_set=()
if [ $oversub -eq 1 ]; then
    for impl in "${impls[@]}"; do
        [ "$impl" = hmpi ] || [ $oversub_ref -eq 1 ] || continue
        launcher "$impl" 2
        runcmd[over.$impl-np2]="$(q "${L[@]}" "$bindir/pingpong.$impl" -c -q "${ov_args[@]}")"
        launcher "$impl" 8
        runcmd[over.$impl-np8]="$(q "${L[@]}" "$bindir/pingpong.$impl" -c -q "${ov_args[@]}")"
        runcmd[over.$impl-np8p]="$(q "${L[@]}" "$bindir/pingpong.$impl" -c -q -p "${ov_args[@]}")"
        over_set+=("over.$impl-np2" "over.$impl-np8" "over.$impl-np8p")
    done
fi
for r in "${main_set[@]+"${main_set[@]}"}" "${over_set[@]+"${over_set[@]}"}"; do
    echo "#   [$r] timeout -k 10 $tmo ${runcmd[$r]}"
done
echo "#   (main group run $rounds times, oversubscription group $ov_rounds times, round-robin with the order rotated"
echo "#    every round; per size the median over rounds)"
for n in "${note_lines[@]+"${note_lines[@]}"}"; do note "$n"; done
echo

# ----------------------------------------------------------------- runs ----
# run_one NAME ROUND: runs, keeps the data rows in raw/NAME.rROUND.csv
declare -A failed
run_one() {
    local name=$1 round=$2 f="$rawdir/$1.r$2" t0 t1 rc
    if [ -n "${failed[$name]:-}" ]; then
        printf '#   round %d %-18s skipped (failed in round %s)\n' "$round" "$name" "${failed[$name]}"
        return
    fi
    t0=$(date +%s.%N)
    eval "timeout -k 10 $tmo ${runcmd[$name]}" >"$f.out" 2>"$f.err"
    rc=$?
    t1=$(date +%s.%N)
    grep -E '^[0-9]+,' "$f.out" >"$f.csv"
    printf '#   round %d %-18s %6.1fs' "$round" "$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
    if [ $rc -ne 0 ] || [ ! -s "$f.csv" ]; then
        printf '  FAILED (exit %d%s), stderr: %s\n' $rc "$([ $rc -eq 124 ] && echo ", timed out")" \
            "$(tail -c 400 "$f.err" | tr '\n' ' ')"
        rm -f "$f.csv"
        failed[$name]=$round
    else
        echo
    fi
}

run_set() { # run_set ROUNDS NAME...: round-robin, rotating the order each round
    local nr=$1; shift
    local -a set=("$@")
    local n=${#set[@]} r i
    [ "$n" -gt 0 ] || return 0
    for ((r = 0; r < nr; r++)); do
        for ((i = 0; i < n; i++)); do
            run_one "${set[(i + r) % n]}" $((r + 1))
        done
    done
}

start=$(date +%s)
echo "# main runs (2 ranks):"
run_set "$rounds" "${main_set[@]+"${main_set[@]}"}"
if [ ${#over_set[@]} -gt 0 ]; then
    echo "# oversubscription runs ($(nproc) cores):"
    run_set "$ov_rounds" "${over_set[@]}"
fi
echo "# runs took $(( $(date +%s) - start )) s; load average now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo

# --------------------------------------------------------------- tables ----
# Median per size over the rounds of each run name; files raw/NAME.rK.csv.
awk_lib='
function med(s,   a, n, i, j, t) {
    n = split(s, a, " ")
    if (n == 0) return ""
    for (i = 2; i <= n; i++) { t = a[i] + 0; j = i - 1
        while (j >= 1 && a[j] + 0 > t) { a[j + 1] = a[j]; j-- } a[j + 1] = t }
    return (n % 2) ? a[(n + 1) / 2] + 0 : (a[n / 2] + a[n / 2 + 1]) / 2
}
function hs(n) { if (n >= 1048576 && n % 1048576 == 0) return (n / 1048576) "M"
                 if (n >= 1024 && n % 1024 == 0) return (n / 1024) "K"; return n "" }
function fl(x) { if (x == "") return "-"; return (x < 100) ? sprintf("%.3f", x) : sprintf("%.1f", x) }
function fb(x) { return (x == "") ? "-" : sprintf("%.0f", x) }
function fr(x) { return (x == "") ? "-" : sprintf("%.2f", x) }
function div(a, b) { return (a == "" || b == "" || b + 0 <= 0) ? "" : a / b }
function cv(x, fmt) { return (x == "") ? "" : sprintf(fmt, x) }
{
    nf = split(FILENAME, p, "/"); base = p[nf]; sub(/\.r[0-9]+\.csv$/, "", base)
    split($0, c, ",")
    sz = c[1] + 0; seen[sz] = 1
    lat[base, sz] = lat[base, sz] " " c[2]
    if (base ~ /np8p$/) {           # pairs -a: ...,max_pair_med,min_pair_bw,mean,max_pair_mean
        mx[base, sz] = mx[base, sz] " " c[5]
        mean[base, sz] = mean[base, sz] " " c[7]; mxmean[base, sz] = mxmean[base, sz] " " c[8]
    } else if (c[5] != "")          # -a: ...,mean
        mean[base, sz] = mean[base, sz] " " c[5]
}
function sorted_sizes(   s, k, n, i, j, t) {
    n = 0; for (s in seen) S[++n] = s + 0
    for (i = 2; i <= n; i++) { t = S[i]; j = i - 1; while (j >= 1 && S[j] > t) { S[j + 1] = S[j]; j-- } S[j + 1] = t }
    return n
}
'

main_files=("$rawdir"/main.*.r*.csv)
if [ -e "${main_files[0]}" ]; then
    echo "== Point-to-point, 2 ranks on different cores: median over $rounds interleaved rounds of the per-run median =="
    echo "   lat = one-way latency [us]; X/HMPI = X lat / HMPI lat (> 1: HMPI faster); BW [MB/s, 1e6 B/s] = size / lat"
    awk -F, -v csv="$out/pingpong.csv" "$awk_lib"'
    END {
        n = sorted_sizes()
        printf "%6s | %9s %9s %9s | %9s %10s | %8s %8s %8s %8s | %12s\n", "size", "HMPI lat", "OMPI lat", "MPICH lat",
               "OMPI/HMPI", "MPICH/HMPI", "HMPI BW", "OMPI BW", "MPICH BW", "memcpyBW", "HMPI/memcpy"
        print "size,hmpi_lat_us,ompi_lat_us,mpich_lat_us,ompi_over_hmpi,mpich_over_hmpi,hmpi_bw_MBps,ompi_bw_MBps,mpich_bw_MBps,memcpy_bw_MBps,hmpi_bw_over_memcpy" > csv
        for (i = 1; i <= n; i++) {
            s = S[i]
            h = med(lat["main.hmpi", s]); o = med(lat["main.ompi", s]); m = med(lat["main.mpich", s])
            cm = med(lat["main.memcpy", s])
            hb = div(s, h); ob = div(s, o); mb = div(s, m); cb = div(s, cm)
            printf "%6s | %9s %9s %9s | %9s %10s | %8s %8s %8s %8s | %12s\n", hs(s), fl(h), fl(o), fl(m),
                   fr(div(o, h)), fr(div(m, h)), fb(hb), fb(ob), fb(mb), fb(cb), fr(div(hb, cb))
            printf "%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", s, cv(h, "%.4f"), cv(o, "%.4f"), cv(m, "%.4f"),
                   cv(div(o, h), "%.4f"), cv(div(m, h), "%.4f"), cv(hb, "%.2f"), cv(ob, "%.2f"), cv(mb, "%.2f"),
                   cv(cb, "%.2f"), cv(div(hb, cb), "%.4f") > csv
        }
    }' "${main_files[@]}"
    echo "   (table written to $out/pingpong.csv)"
    echo
else
    echo "== no successful point-to-point runs =="
fi

over_files=("$rawdir"/over.*.r*.csv)
if [ ${#over_set[@]} -gt 0 ] && [ -e "${over_files[0]}" ]; then
    echo "== Oversubscription: -np 8 on $(nproc) cores vs -np 2 (one-way latency [us], median over $ov_rounds rounds) =="
    echo "   np8 = ranks 0-1 ping-pong while 6 ranks wait in MPI_Recv; np8p = pairs mode, 4 pairs at once (slowest pair shown)"
    echo "   'median' = median of timed blocks (typical speed); 'mean' = all round trips (counts every stall, e.g."
    echo "   being descheduled by a busy waiting rank); ratios = latency / np2 latency (1.00 = no slowdown)"
    impl_list=""
    for r in "${over_set[@]}"; do case $r in *-np2) i=${r#over.}; impl_list+="${i%-np2} " ;; esac; done
    awk -F, -v csv="$out/oversub.csv" -v impls="$impl_list" "$awk_lib"'
    END {
        n = sorted_sizes(); ni = split(impls, I, " ")
        print "impl,size,np2_lat_us,np8_lat_us,np8_over_np2,np8p_pair0_lat_us,np8p_maxpair_lat_us,np8p_maxpair_over_np2," \
              "np2_mean_us,np8_mean_us,np8_mean_over_np2,np8p_maxpair_mean_us,np8p_maxpair_mean_over_np2" > csv
        for (k = 1; k <= ni; k++) {
            im = I[k]
            printf "  %s:%21s%-36s | %s\n", im, "", "median of blocks", "mean over all round trips"
            printf "  %6s | %8s | %8s %7s | %9s %7s | %8s | %8s %7s | %9s %7s\n", "size", "np2", "np8", "np8/np2",
                   "np8p max", "max/np2", "np2", "np8", "np8/np2", "np8p max", "max/np2"
            for (i = 1; i <= n; i++) {
                s = S[i]
                a = med(lat["over." im "-np2", s]); b = med(lat["over." im "-np8", s])
                p0 = med(lat["over." im "-np8p", s]); px = med(mx["over." im "-np8p", s])
                ea = med(mean["over." im "-np2", s]); eb = med(mean["over." im "-np8", s])
                ex = med(mxmean["over." im "-np8p", s])
                if (a == "" && b == "" && p0 == "") continue
                if (s == 8) { r8[im, 1] = div(b, a); r8[im, 2] = div(px, a); r8[im, 3] = div(eb, ea); r8[im, 4] = div(ex, ea) }
                printf "  %6s | %8s | %8s %7s | %9s %7s | %8s | %8s %7s | %9s %7s\n", hs(s), fl(a), fl(b), fr(div(b, a)),
                       fl(px), fr(div(px, a)), fl(ea), fl(eb), fr(div(eb, ea)), fl(ex), fr(div(ex, ea))
                printf "%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", im, s, cv(a, "%.4f"), cv(b, "%.4f"),
                       cv(div(b, a), "%.4f"), cv(p0, "%.4f"), cv(px, "%.4f"), cv(div(px, a), "%.4f"), cv(ea, "%.4f"),
                       cv(eb, "%.4f"), cv(div(eb, ea), "%.4f"), cv(ex, "%.4f"), cv(div(ex, ea), "%.4f") > csv
            }
        }
        for (k = 1; k <= ni; k++)
            printf "  %s 8-byte latency ratio vs np2: np8 = %s (mean %s), np8 pairs slowest pair = %s (mean %s)\n",
                   I[k], fr(r8[I[k], 1]), fr(r8[I[k], 3]), fr(r8[I[k], 2]), fr(r8[I[k], 4])
    }' "${over_files[@]}"
    echo "   (table written to $out/oversub.csv)"
    echo
elif [ $oversub -eq 1 ]; then
    echo "== Oversubscription section skipped: $([ ${#over_set[@]} -eq 0 ] && echo "HMPI not available (--oversub-ref adds Open MPI / MPICH)" || echo "no successful runs") =="
    echo
fi
for n in "${note_lines[@]+"${note_lines[@]}"}"; do note "$n"; done
echo "# report: $out/report.txt; raw per-run CSVs and stderr: $rawdir"
exec >&- 2>&-
wait "$tee_pid" 2>/dev/null
exit 0
