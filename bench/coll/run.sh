#!/usr/bin/env bash
# run.sh - collective latency: HMPI vs Open MPI vs MPICH, side by side, plus
# HMPI once per algorithm and HMPI's model predictions (bench/coll/README.md).
#
# Builds bench/coll/coll_bench.c with HMPI's hmpicc, mpicc.openmpi and
# mpicc.mpich (same flags; a missing one is skipped with a note), then, per
# collective, runs the implementations one after the other (the order rotates
# per collective and per round, so machine noise hits all alike) at NP ranks
# bound to cores, followed by HMPI with HMPI_<COLL>_ALGORITHM=<name> for every
# intracommunicator algorithm `hmpi-info --algorithms <coll>` lists. Records
# `hmpi-info --model <coll> -n NP` (HMPI's predicted time per algorithm and
# size) and the single-thread memcpy bandwidth (bench/memcpy_bw.c), then
# calls analyze.py for the plots and the metrics table.
#
# usage: bench/coll/run.sh [options]
#   --np N            ranks (default 2)
#   -c LIST           collectives, comma-separated (default: the twelve of
#                     coll_bench; 'all' adds allgatherv,gatherv)
#   --min SIZE        smallest size (default 8)    --max SIZE  largest (default 16M)
#   --sizes LIST      explicit sizes instead of the powers of two
#   --time-ms T       a repetition takes about T ms (default 10)
#   --reps N          repetitions per size, median reported (default 5)
#   --iters N         fixed calls per repetition instead of --time-ms
#   --rounds N        run the whole interleaved set N times; analyze.py takes
#                     the median over rounds (default 1)
#   --quick           smoke run: sizes 8 B .. 64 KiB, --time-ms 2, --reps 3
#   --root R          root of the rooted collectives (coll_bench --root; default
#                     0); 'rotate': call i's root is i mod NP, for all three
#   --read-results    every rank reads its receive buffer after each timed
#                     call (untimed; coll_bench --read-results), so lines that
#                     senders stored into do not stay in their caches
#   --start S         'barrier' (default) or 'scheduled': every call of every
#                     implementation starts at a time common to all ranks
#                     instead of after an MPI_Barrier (coll_bench --start;
#                     one node only; docs/model.md, "The benchmark's entry skew")
#   --impls LIST      subset of hmpi,ompi,mpich (default: all installed)
#   --no-algorithms   skip the per-algorithm HMPI runs
#   --validate        first run coll_bench --validate under every
#                     implementation (and every HMPI algorithm); exit status 1
#                     at the end if one fails
#   --validate-only   only that
#   --profile FILE    HMPI model profile: exported as HMPI_PROFILE to HMPI's
#                     runs and hmpi-info, and given to analyze.py
#   --calibrate       first calibrate (bench/coll/calibrate.sh: hmpi-calibrate
#                     again while a calibration changes machine state midway,
#                     up to CALIBRATE_TRIES times) into STEM.profile.txt and
#                     use it as --profile
#   --bandwidth GBPS  copy bandwidth for the 16 MiB Allreduce bound (analyze.py)
#   --out DIR         output directory (default bench/coll/results)
#   --prebuilt DIR    take coll_bench-<impl>, memcpy_bw, copy_bw_threads and handoff_floor (the
#                     state probe; build/bench/handoff_floor) from DIR instead
#                     of compiling them (a machine with the launchers but no
#                     compilers); an implementation is run when DIR has its
#                     executable and its launcher is installed
#   --tag NAME        file name stem (default <YYYYmmdd-HHMMSS>-np<N>)
# environment:
#   HMPI_BUILD        HMPI build directory (default build; relative to the
#                     current directory if it exists there, else to the repo)
#   BENCH_CFLAGS      compiler flags (default "-O2 -std=c11 -Wall -Wextra")
#   RUN_TIMEOUT       seconds one run may take (default 600)
#   CALIBRATE_TRIES   calibrations --calibrate makes at most (default 4)
#   CALIBRATE_STATE   slow:NS or fast:NS: --calibrate keeps only a
#                     calibration made in that machine state (calibrate.sh)
#   PYTHON            interpreter for analyze.py (default: /usr/bin/python3
#                     when it has matplotlib, else python3)
# outputs, in DIR (STEM = <date>-np<N>):
#   STEM.csv          impl,collective,bytes,ranks,avg_us,max_us,iters,round,
#                     probe_before_ns,probe_after_ns
#                     (impl: hmpi, ompi, mpich, or hmpi:<algorithm> when forced;
#                     the probes: bench/handoff_floor.c's one-way handoff of a
#                     line between CPUs 0 and 1 just before and just after the
#                     run, empty where it could not run; analyze.py compares
#                     runs per machine state with them)
#   STEM.model.csv    collective,algorithm,bytes,predicted_us,chosen (hmpi-info
#                     --model COLL -n NP --csv; its default sizes, 8 B .. 16 MiB)
#   STEM.memcpy.csv   memcpy_bw's CSV (size,lat_us_median,lat_us_min,bw_MBps)
#   STEM.copy-threads.csv  copy_bw_threads' CSV (threads,size,lat_us_median,
#                     lat_us_min,bw_MBps) then round,probe_before_ns,
#                     probe_after_ns: NP pinned threads copying 16 MiB each at
#                     once, the large Allreduce's bound, once per round
#   STEM.profile.txt  with --calibrate: the profile (and .log: every try)
#   STEM.notes        forced algorithms that fell back to another, failures
#   STEM.log          everything printed
#   STEM/             analyze.py's metrics.md and PNG plots
#   raw/STEM/         every run's stdout and stderr;  bin/  the executables
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

np=2
colls="barrier,bcast,reduce,allreduce,reduce_scatter_block,reduce_scatter,allgather,gather,scatter,alltoall,scan,exscan"
size_args=()
time_args=()
read_args=()
start_args=()
root_args=()
rounds=1
quick=0
impl_filter="hmpi,ompi,mpich"
algorithms=1
validate=0
validate_only=0
profile=""
calibrate=0
bandwidth=""
prebuilt=""
out="$here/results"
tag=""
die() { echo "run.sh: $*" >&2; exit 2; }
need() { [ "$2" -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
    case "$1" in
    --np) need "$1" $#; np=$2; shift ;;
    -c) need "$1" $#; colls=$2; shift ;;
    --min|--max|--sizes) need "$1" $#; size_args+=("$1" "$2"); shift ;;
    --time-ms|--reps|--iters) need "$1" $#; time_args+=("$1" "$2"); shift ;;
    --rounds) need "$1" $#; rounds=$2; shift ;;
    --quick) quick=1 ;;
    --read-results) read_args=(--read-results) ;;
    --start) need "$1" $#; start_args=(--start "$2"); shift ;;
    --root) need "$1" $#; root_args=(--root "$2"); shift ;;
    --impls) need "$1" $#; impl_filter=$2; shift ;;
    --no-algorithms) algorithms=0 ;;
    --validate) validate=1 ;;
    --validate-only) validate=1; validate_only=1 ;;
    --profile) need "$1" $#; profile=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
    --calibrate) calibrate=1 ;;
    --bandwidth) need "$1" $#; bandwidth=$2; shift ;;
    --out) need "$1" $#; out=$2; shift ;;
    --prebuilt) need "$1" $#; prebuilt=$(cd "$2" && pwd) || die "no directory '$2'"; shift ;;
    --tag) need "$1" $#; tag=$2; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (try --help)" ;;
    esac
    shift
done
case "$np" in ''|*[!0-9]*|0) die "bad --np '$np'" ;; esac
case "$rounds" in ''|*[!0-9]*|0) die "bad --rounds '$rounds'" ;; esac
[ $calibrate -eq 1 ] && [ -n "$profile" ] && die "--calibrate and --profile exclude each other"
if [ $quick -eq 1 ]; then
    [ ${#size_args[@]} -eq 0 ] && size_args=(--max 64K)
    [ ${#time_args[@]} -eq 0 ] && time_args=(--time-ms 2 --reps 3)
fi
read -r -a cflags <<<"${BENCH_CFLAGS:--O2 -std=c11 -Wall -Wextra}"
tmo=${RUN_TIMEOUT:-600}
IFS=',' read -r -a coll_list <<<"$colls"

hb=${HMPI_BUILD:-build}
if [ "${hb#/}" = "$hb" ]; then
    if [ -d "$hb" ]; then hb=$(cd "$hb" && pwd); else hb="$repo/$hb"; fi
fi
stem=${tag:-$(date '+%Y%m%d-%H%M%S')-np$np}
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
bindir="$out/bin"
rawdir="$out/raw/$stem"
mkdir -p "$bindir" "$rawdir" || exit 1
csv="$out/$stem.csv"
model_csv="$out/$stem.model.csv"
notes="$out/$stem.notes"
: >"$notes"
exec > >(tee "$out/$stem.log") 2>&1

note() { printf '# note: %s\n' "$*"; printf '%s\n' "$*" >>"$notes"; }
want() { case ",$impl_filter," in *",$1,"*) return 0 ;; esac; return 1; }

cores=$(nproc)
echo "# bench/coll/run.sh $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(uname -n), $cores cores," \
    "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "# np $np, collectives $colls, sizes ${size_args[*]:-8..16M}, timing ${time_args[*]:-default}$(
    )${read_args[*]:+, results read}${start_args[*]:+, start ${start_args[1]}}$(
    )${root_args[*]:+, root ${root_args[1]}}, rounds $rounds"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v l="$(cut -d' ' -f1 /proc/loadavg)" -v c="$cores" 'BEGIN { exit !(l > c / 2) }' &&
    echo "# WARNING: the machine is already busy; the numbers will be noisy"
if [ $calibrate -eq 1 ]; then
    profile="$out/$stem.profile.txt"
    echo "# HMPI_BUILD=$hb $here/calibrate.sh $profile ${CALIBRATE_TRIES:-4}"
    HMPI_BUILD=$hb "$here/calibrate.sh" "$profile" "${CALIBRATE_TRIES:-4}"
    case $? in 0) ;; 3) note "every calibration changed machine state midway; the profile mixes the two" ;;
        *) die "calibration failed (see $profile.log)" ;; esac
fi
[ -n "$profile" ] && export HMPI_PROFILE="$profile" && echo "# HMPI_PROFILE=$profile"

# ------------------------------------------------------------------ build --
declare -A cc launch
# With --prebuilt no compiler is needed, only the launcher.
have_cc() { [ -n "$prebuilt" ] || command -v "$1" >/dev/null; }
impls=()
if want hmpi; then
    if { [ -n "$prebuilt" ] || [ -x "$hb/bin/hmpicc" ]; } && [ -x "$hb/bin/hmpirun" ]; then
        cc[hmpi]="$hb/bin/hmpicc"
        launch[hmpi]="$hb/bin/hmpirun -np $np --bind-to core"
        impls+=(hmpi)
    else
        note "HMPI skipped: $hb/bin/hmpicc or hmpirun not found (run bash scripts/build.sh, or set HMPI_BUILD)"
    fi
fi
if want ompi; then
    if have_cc mpicc.openmpi && command -v mpirun.openmpi >/dev/null; then
        cc[ompi]=mpicc.openmpi
        if [ "$np" -gt "$cores" ]; then bind="--oversubscribe --bind-to core:overload-allowed"; else bind="--bind-to core"; fi
        launch[ompi]="env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi --allow-run-as-root $bind -np $np"
        impls+=(ompi)
    else
        note "Open MPI skipped: mpicc.openmpi / mpirun.openmpi not installed"
    fi
fi
if want mpich; then
    if have_cc mpicc.mpich && command -v mpiexec.mpich >/dev/null; then
        cc[mpich]=mpicc.mpich
        launch[mpich]="mpiexec.mpich -n $np -bind-to core"
        impls+=(mpich)
    else
        note "MPICH skipped: mpicc.mpich / mpiexec.mpich not installed"
    fi
fi

built=()
for impl in "${impls[@]}"; do
    exe="$bindir/coll_bench-$impl"
    if [ -n "$prebuilt" ]; then
        if [ -x "$prebuilt/coll_bench-$impl" ] && cp "$prebuilt/coll_bench-$impl" "$exe"; then
            echo "# prebuilt: $exe from $prebuilt"
            built+=("$impl")
        else
            note "$impl skipped: no $prebuilt/coll_bench-$impl"
        fi
        continue
    fi
    echo "# build: ${cc[$impl]} ${cflags[*]} -o $exe $here/coll_bench.c"
    if ${cc[$impl]} "${cflags[@]}" -o "$exe" "$here/coll_bench.c" >"$rawdir/build-$impl.log" 2>&1; then
        built+=("$impl")
    else
        note "$impl skipped: build failed ($rawdir/build-$impl.log)"
        cat "$rawdir/build-$impl.log"
    fi
done
[ ${#built[@]} -gt 0 ] || { echo "run.sh: nothing to run"; exit 1; }
for impl in "${built[@]}"; do echo "# run $impl: ${launch[$impl]} $bindir/coll_bench-$impl ..."; done

# The algorithms of one collective that run on an intracommunicator
# (hmpi-info --algorithms COLL prints one name per line; inter_* need an
# intercommunicator and would only fall back).
algorithms_of() {
    [ $algorithms -eq 1 ] && [ -x "$hb/bin/hmpi-info" ] || return 0
    "$hb/bin/hmpi-info" --algorithms "$1" 2>/dev/null | awk 'NF == 1 && $1 !~ /^inter/ { print $1 }'
}
upper() { printf '%s' "$1" | tr '[:lower:]' '[:upper:]'; }

# One run: run_one LABEL IMPL COLL EXTRA_ENV... -- coll_bench args; appends
# its CSV lines (with the round number) to $csv. Returns the run's status.
round=0
run_one() {
    local label=$1 impl=$2 coll=$3 envs=()
    shift 3
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
    shift
    local base="$rawdir/$label.$coll.r$round"
    base=${base//:/-}
    local -a L
    read -r -a L <<<"${launch[$impl]}"
    env "${envs[@]}" timeout -k 10 "$tmo" "${L[@]}" "$bindir/coll_bench-$impl" --impl "$label" -c "$coll" "$@" \
        >"$base.out" 2>"$base.err"
    local rc=$?
    if [ $rc -ne 0 ]; then
        note "$label $coll round $round failed with status $rc ($base.err): $(tail -n 3 "$base.err" | tr '\n' ' ')"
    fi
    if grep -q 'cannot run this call' "$base.err" 2>/dev/null; then
        note "fallback: $label $coll: $(grep -m1 'cannot run this call' "$base.err")"
    fi
    return $rc
}

# ------------------------------------------------------------ state probe --
# Some machines change speed for seconds at a time (a VM whose vCPUs move
# between host placements: docs/performance-collectives.md). A 20 ms probe
# before and after every timed run, the one-way handoff of a cache line
# between CPUs 0 and 1 with no MPI in between, tells analyze.py which state
# each run saw, so that it can compare implementations within one state.
prober=""
if [ "$cores" -ge 2 ]; then
    if [ -n "$prebuilt" ]; then
        cp "$prebuilt/handoff_floor" "$bindir/handoff_floor" 2>/dev/null && prober="$bindir/handoff_floor"
    elif command -v cc >/dev/null &&
        cc -O2 -std=c11 -pthread -o "$bindir/handoff_floor" "$repo/bench/handoff_floor.c" >"$rawdir/build-probe.log" 2>&1; then
        prober="$bindir/handoff_floor"
    fi
    [ -n "$prober" ] || note "no state probe: bench/handoff_floor.c not built (the CSV's probe columns stay empty)"
fi
probe() {
    [ -n "$prober" ] || return 0
    "$prober" -l 1 -p 3 -n 5000 2>/dev/null | awk -F, '$1 == "pingpong" { print $4 }'
}

# ------------------------------------------------------------- validate --
vfail=0
if [ $validate -eq 1 ]; then
    echo "# validation: coll_bench --validate ${size_args[*]} at $np ranks"
    round=validate
    for coll in "${coll_list[@]}"; do
        for impl in "${built[@]}"; do
            variants=("$impl|")
            if [ "$impl" = hmpi ]; then
                for a in $(algorithms_of "$coll"); do variants+=("hmpi:$a|HMPI_$(upper "$coll")_ALGORITHM=$a"); done
            fi
            for v in "${variants[@]}"; do
                label=${v%%|*} e=${v#*|}
                envs=()
                [ -n "$e" ] && envs=("$e")
                if run_one "$label" "$impl" "$coll" "${envs[@]}" -- --validate --no-header "${size_args[@]}"; then
                    echo "# validate $label $coll: ok ($(grep -c ': ok' "$rawdir/${label//:/-}.$coll.r$round.out") sizes)"
                else
                    vfail=1
                    echo "# validate $label $coll: FAILED"
                    grep -v ': ok' "$rawdir/${label//:/-}.$coll.r$round.out" "$rawdir/${label//:/-}.$coll.r$round.err" | head -5
                fi
            done
        done
    done
    round=0
    echo "# validation: $([ $vfail -eq 0 ] && echo 'all passed' || echo 'FAILURES (see above)')"
    [ $validate_only -eq 1 ] && exit $vfail
fi

# NP threads copying 16 MiB each at once, pinned as the ranks are: the
# large Allreduce's data-volume bound (analyze.py --copy-threads), measured
# once per round between the state probes (a machine with two states has
# two bounds: docs/performance-collectives.md, stop 58), so that
# analyze.py can compare the Allreduce with the bound of its own state.
copy_threads=""
if if [ -n "$prebuilt" ]; then cp "$prebuilt/copy_bw_threads" "$bindir/copy_bw_threads" 2>"$rawdir/build-copy-threads.log"
   else command -v cc >/dev/null && cc -O2 -std=c11 -pthread -o "$bindir/copy_bw_threads" "$repo/bench/copy_bw_threads.c" 2>"$rawdir/build-copy-threads.log"; fi; then
    copy_threads="$bindir/copy_bw_threads"
    : >"$out/$stem.copy-threads.csv"
else
    note "copy_bw_threads not built ($rawdir/build-copy-threads.log)"
fi
# copy_threads_round: one measurement, its line with ",round,probe before,probe after" appended.
copy_threads_round() {
    [ -n "$copy_threads" ] || return 0
    local before after line
    before=$(probe)
    if line=$("$copy_threads" -c -q -p "$np" -s 16M -r 9 2>>"$rawdir/copy-threads.err"); then
        after=$(probe)
        printf '%s\n' "$line" | grep '^[0-9]' | sed "s/\$/,$round,$before,$after/" >>"$out/$stem.copy-threads.csv"
    else
        note "copy_bw_threads failed in round $round ($rawdir/copy-threads.err)"
    fi
}

# ---------------------------------------------------------------- timing --
echo "impl,collective,bytes,ranks,avg_us,max_us,iters,round,probe_before_ns,probe_after_ns" >"$csv"
for ((round = 0; round < rounds; round++)); do
    ci=0
    for coll in "${coll_list[@]}"; do
        variants=()
        for impl in "${built[@]}"; do variants+=("$impl|$impl|"); done
        if printf '%s\n' "${built[@]}" | grep -qx hmpi; then
            for a in $(algorithms_of "$coll"); do variants+=("hmpi:$a|hmpi|HMPI_$(upper "$coll")_ALGORITHM=$a"); done
        fi
        n=${#variants[@]}
        for ((i = 0; i < n; i++)); do
            IFS='|' read -r label impl e <<<"${variants[$(((i + round + ci) % n))]}"
            envs=()
            [ -n "$e" ] && envs=("$e")
            before=$(probe)
            if run_one "$label" "$impl" "$coll" "${envs[@]}" -- --no-header "${size_args[@]}" "${time_args[@]}" \
                "${read_args[@]}" "${start_args[@]}" "${root_args[@]}"; then
                after=$(probe)
                f="$rawdir/${label//:/-}.$coll.r$round.out"
                grep -v '^#' "$f" | sed "s/\$/,$round,$before,$after/" >>"$csv"
                printf '# %-7s %-28s %-13s %s\n' "r$round" "$label $coll" "[${before:-?}/${after:-?}]" \
                    "$(grep -v '^#' "$f" | awk -F, '{ printf "%s:%s ", $3, $5 }' | cut -c1-100)"
            fi
        done
        ci=$((ci + 1))
    done
    copy_threads_round
done
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# wrote $csv ($(($(wc -l <"$csv") - 1)) measurements)"

# ------------------------------------------------------ model predictions --
if printf '%s\n' "${built[@]}" | grep -qx hmpi && [ -x "$hb/bin/hmpi-info" ]; then
    echo "collective,algorithm,bytes,predicted_us,chosen" >"$model_csv"
    for coll in "${coll_list[@]}"; do
        if "$hb/bin/hmpi-info" --model "$coll" -n "$np" --csv >"$rawdir/model.$coll.out" 2>"$rawdir/model.$coll.err"; then
            # keep the data lines: collective,algorithm,bytes,predicted_us,chosen
            awk -F, 'NF == 5 && $3 ~ /^[0-9]+$/' "$rawdir/model.$coll.out" >>"$model_csv"
        else
            note "no model predictions for $coll: hmpi-info --model $coll -n $np failed: $(head -c 200 "$rawdir/model.$coll.err" | tr '\n' ' ')"
        fi
    done
    echo "# wrote $model_csv ($(($(wc -l <"$model_csv") - 1)) predictions)"
fi

# ------------------------------------------------------- copy bandwidth --
if if [ -n "$prebuilt" ]; then cp "$prebuilt/memcpy_bw" "$bindir/memcpy_bw" 2>"$rawdir/build-memcpy.log"
   else command -v cc >/dev/null && cc -O2 -std=c11 -o "$bindir/memcpy_bw" "$repo/bench/memcpy_bw.c" 2>"$rawdir/build-memcpy.log"; fi; then
    cpu=$(taskset -pc $$ 2>/dev/null | sed -n 's/.*list: *\([0-9]*\).*/\1/p')
    pin=()
    [ -n "$cpu" ] && command -v taskset >/dev/null && pin=(taskset -c "$cpu")
    "${pin[@]}" "$bindir/memcpy_bw" -c -q -m 16M -r 5 >"$out/$stem.memcpy.csv" 2>"$rawdir/memcpy.err" ||
        note "memcpy_bw failed ($rawdir/memcpy.err)"
else
    note "memcpy_bw not built ($rawdir/build-memcpy.log)"
fi
# ---------------------------------------------------------------- analyze --
py=${PYTHON:-}
if [ -z "$py" ]; then
    if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then py=/usr/bin/python3; else py=python3; fi
fi
aargs=("$csv" --out "$out/$stem" --notes "$notes")
[ -s "$model_csv" ] && aargs+=(--model "$model_csv")
[ -s "$out/$stem.memcpy.csv" ] && aargs+=(--memcpy "$out/$stem.memcpy.csv")
[ -s "$out/$stem.copy-threads.csv" ] && aargs+=(--copy-threads "$out/$stem.copy-threads.csv")
[ -n "$profile" ] && aargs+=(--profile "$profile")
[ -n "$bandwidth" ] && aargs+=(--bandwidth "$bandwidth")
echo "# analyze: $py $here/analyze.py ${aargs[*]}"
"$py" "$here/analyze.py" "${aargs[@]}"
arc=$?
exit $((vfail || arc))
