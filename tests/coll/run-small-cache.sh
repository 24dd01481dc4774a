#!/usr/bin/env bash
# run-small-cache.sh [--nt-from BYTES] HMPI_CALIBRATE SCRATCH_DIR COMMAND [ARGS...]
#
# Runs COMMAND under a model profile whose cache holds 64 KiB a core beyond
# its L2 (C is then the L2s and little more), so messages of a few MiB count as beyond
# the cache and the algorithms take their non-temporal paths
# (store_kind_for: the streamed copies, tiled_push's fold stored into every
# receive buffer at once), which a test's messages never reach against a
# real cache. The profile is this machine's own (hmpi-calibrate --quick,
# about 3 s, so its topology key matches) with core_cache_bytes set to the
# L2 of its topology key plus 64 KiB (a core_cache_bytes within the L2 is
# ignored: levels.hpp effective_llc_bytes), exported as HMPI_PROFILE.
#
# --nt-from BYTES: keep the measured cache and set nt_copy_from to BYTES a
# rank instead (nt_copy_ratio 0.8 where the calibration wrote none), so the
# copies into result buffers take their non-temporal path inside the cache
# (result_store_kind_for) at sizes a test reaches.
#
# Exits with COMMAND's status; 2 when the profile cannot be made.
set -u
nt_from=""
if [ "${1:-}" = --nt-from ]; then
    nt_from=$2
    shift 2
fi
if [ $# -lt 3 ]; then
    echo "usage: $0 [--nt-from BYTES] HMPI_CALIBRATE SCRATCH_DIR COMMAND [ARGS...]" >&2
    exit 2
fi
calibrate=$1 dir=$2
shift 2
mkdir -p "$dir" || exit 2
profile=$dir/small-cache-profile.txt
if ! "$calibrate" --quick --output "$profile.tmp" 2>"$dir/calibrate.log"; then
    echo "run-small-cache: hmpi-calibrate --quick failed:" >&2
    sed 's/^/    /' "$dir/calibrate.log" >&2
    exit 2
fi
# The L2 from the key (L2=1MiB, L2=512KiB; none: 0).
l2=$(sed -n 's/^topology_key .*:L2=\([0-9]*\)\([KMG]i\)B.*/\1 \2/p' "$profile.tmp" |
     awk '{ print $1 * ($2 == "Ki" ? 1024 : $2 == "Mi" ? 1048576 : 1073741824) }')
core_cache=$(( ${l2:-0} + 65536 ))
if [ -n "$nt_from" ]; then
    ratio=$(sed -n 's/^nt_copy_ratio //p' "$profile.tmp")
    { grep -v '^nt_copy_from \|^nt_copy_ratio ' "$profile.tmp"
      echo "nt_copy_from $nt_from"
      echo "nt_copy_ratio ${ratio:-0.8}"; } >"$profile" || exit 2
else
    # Replace the measured core_cache_bytes (or add one where none was measured).
    { grep -v '^core_cache_bytes ' "$profile.tmp"; echo "core_cache_bytes $core_cache"; } >"$profile" || exit 2
fi
rm -f "$profile.tmp"
export HMPI_PROFILE=$profile
exec "$@"
