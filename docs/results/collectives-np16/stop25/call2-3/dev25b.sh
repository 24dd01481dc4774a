#!/bin/bash
# Stop 25, second call: movement_avoiding Allreduce at 16 ranks with four
# strip-mining block sizes (kMaBlockBytes 128 KiB, 512 KiB (main), 2 MiB,
# 64 MiB = one round up to the flag cap), tiled alongside, 3 interleaved rounds.
set -u
out=$1; np=${2:-16}
cd "$(dirname "$0")/.." || exit 1
D=$PWD/.devbundle
[ "$np" = 16 ] && { tar -C / --skip-old-files --keep-directory-symlink -xJf "$D/sys.tar.xz" && ldconfig; }
pf=$D/../docs/results/collectives-np16/stop25/profile.txt
[ -f "$pf" ] || pf=$D/profile16.txt
sizes=256K,512K,1M,2M,4M,16M
for round in 0 1 2; do
    for v in main 128 2048 65536 tiled; do
        lib=$D/build/lib alg=movement_avoiding
        case $v in main) ;; tiled) alg=tiled ;; *) lib=$D/ma$v ;; esac
        env ${EXTRA_ENV:-} LD_LIBRARY_PATH=$lib HMPI_PROFILE=$pf HMPI_ALLREDUCE_ALGORITHM=$alg timeout 60 \
            "$D/build/bin/hmpirun" -np "$np" --bind-to core "$D/pre/coll_bench-hmpi" -c allreduce --sizes $sizes \
            --time-ms 10 --reps 3 --no-header --impl "ma$v:$alg" | sed "s/\$/,$round/"
    done
done | tee "$out/ma_blocks${TAG:-}.csv"
echo done
