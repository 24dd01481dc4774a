#!/bin/bash
# One-shot 16-core session, stop 16, second lease: calibrate; A/B of the
# one-poll waits (HEAD's library against fe4585e's, the same coll_bench
# executable, alternating, 3 rounds) on the three algorithms they changed
# (tiled and reduce_bcast Allreduce, one_stage Bcast) and an unchanged
# control (dissemination Allreduce); then the side-by-side run of the twelve
# collectives (2 rounds) with HEAD's library.
# usage: .devbundle/dev16e.sh OUTDIR [local]
set -u
out=$1 mode=${2:-device} np=16
cd "$(dirname "$0")/.." || exit 1
D=$PWD/.devbundle
T0=$(date +%s)
el() { echo "[t=$(($(date +%s) - T0))s] $*"; }
left() { echo $(($1 - ($(date +%s) - T0))); }
rounds=2 sizes=(--min 8 --max 4M) total=${TOTAL:-420} ab=(--min 8 --max 1M) abr=3
if [ "$mode" = device ]; then
    tar -C / --skip-old-files --keep-directory-symlink -xJf "$D/sys.tar.xz" && ldconfig
else
    np=2 rounds=1 sizes=(--sizes 8,4K) total=200 ab=(--sizes 8,4K) abr=1
fi
export LD_LIBRARY_PATH=$D/build/lib
el "calibrate"
timeout 60 "$D/build/bin/hmpi-calibrate" --output "$out/profile.txt" >"$out/calibrate.log" 2>&1
el "calibrate rc=$?"
grep -E "alpha:|call overhead:|rewrite_line =|source_line =" "$out/calibrate.log" | tail -5
pf=()
[ -s "$out/profile.txt" ] && pf=(--profile "$out/profile.txt") && export HMPI_PROFILE=$out/profile.txt
el "A/B"
ab_csv=$out/ab-np$np.csv
for r in $(seq 1 $abr); do
    for lib in base build; do
        for cfg in ALLREDUCE:tiled:allreduce ALLREDUCE:reduce_bcast:allreduce BCAST:one_stage:bcast ALLREDUCE:dissemination:allreduce; do
            IFS=: read -r var alg coll <<<"$cfg"
            env LD_LIBRARY_PATH=$D/$lib/lib "HMPI_${var}_ALGORITHM=$alg" timeout 40 "$D/build/bin/hmpirun" -np "$np" --bind-to core \
                "$D/pre/coll_bench-hmpi" -c "$coll" "${ab[@]}" --time-ms 4 --reps 3 --no-header --impl "$lib:$alg" 2>/dev/null |
                grep -v '^#' | sed "s/\$/,$r/" >>"$ab_csv"
        done
    done
done
el "A/B done: $(wc -l <"$ab_csv") rows"
el "main run"
HMPI_BUILD=$D/build RUN_TIMEOUT=40 timeout "$(left $((total - 5)))" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" \
    "${sizes[@]}" --time-ms 4 --reps 3 --rounds "$rounds" "${pf[@]}" --out /tmp/r3 --tag "np$np" |
    grep -E "^# (wrote|load)|failed" | tail -6
el "main rc=$?"
cd /tmp/r3 && tar -czf "$out/np$np-stop16b.tgz" ./*.csv ./*.notes ./*.log 2>&1 | tail -2
el "done"
