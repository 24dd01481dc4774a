#!/usr/bin/env bash
# make-bundle.sh - packs everything the 16-rank benchmark needs into one
# folder, for a machine that has no compiler, no MPI and no network: the
# 16-core machine the device tool lends now and then (bench/device/README.md).
#
# usage: bench/device/make-bundle.sh [--out DIR]   (default .devbundle, git-ignored)
# environment: HMPI_BUILD  a built tree (default build; scripts/build.sh)
#
# DIR/build/bin   hmpirun, hmpi-calibrate (and the hmpi-call-overhead it
#                 runs), hmpi-info (stripped)
# DIR/build/lib   libhmpi.so                              (stripped)
# DIR/pre         coll_bench-hmpi, coll_bench-ompi, coll_bench-mpich,
#                 entry_skew-hmpi, entry_skew-ompi, entry_skew-mpich,
#                 memcpy_bw, copy_bw_threads, handoff_floor, pull_patterns
#                 (stripped; run.sh --prebuilt)
# DIR/sys.tar.xz  the files of Open MPI's, MPICH's, hwloc's and libnuma's
#                 runtime packages and of the installed packages they depend
#                 on, less those every Debian or Ubuntu system has (priority
#                 required or important), documentation and headers;
#                 np16.sh unpacks it at / without replacing any file there.
# DIR/MANIFEST    what was packed, from which commit, and the packages.
#
# The folder must stay under the device tool's 64 MiB carry limit; the
# script says its size and fails above it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$repo/.devbundle
while [ $# -gt 0 ]; do
    case $1 in
    --out) out=$2; shift 2 ;;
    -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "make-bundle.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
hb=${HMPI_BUILD:-$repo/build}
[ -d "$hb" ] || hb=$repo/$hb
for f in bin/hmpirun bin/hmpicc bin/hmpi-calibrate bin/hmpi-call-overhead bin/hmpi-info lib/libhmpi.so; do
    [ -e "$hb/$f" ] || { echo "make-bundle.sh: $hb/$f missing: build first (bash scripts/build.sh)" >&2; exit 1; }
done
for c in mpicc.openmpi mpicc.mpich cc strip dpkg-query apt-cache xz; do
    command -v "$c" >/dev/null || { echo "make-bundle.sh: '$c' not found (bash scripts/install-deps.sh)" >&2; exit 1; }
done

rm -rf "$out"
mkdir -p "$out/build/bin" "$out/build/lib" "$out/pre"
for f in hmpirun hmpi-calibrate hmpi-call-overhead hmpi-info; do strip -o "$out/build/bin/$f" "$hb/bin/$f"; done
strip -o "$out/build/lib/libhmpi.so" "$hb/lib/libhmpi.so"

# The benchmark, compiled as bench/coll/run.sh compiles it.
cflags=(-O2 -std=c11 -Wall -Wextra)
"$hb/bin/hmpicc" "${cflags[@]}" -o "$out/pre/coll_bench-hmpi" "$repo/bench/coll/coll_bench.c"
mpicc.openmpi "${cflags[@]}" -o "$out/pre/coll_bench-ompi" "$repo/bench/coll/coll_bench.c"
mpicc.mpich "${cflags[@]}" -o "$out/pre/coll_bench-mpich" "$repo/bench/coll/coll_bench.c"
"$hb/bin/hmpicc" "${cflags[@]}" -o "$out/pre/entry_skew-hmpi" "$repo/bench/coll/entry_skew.c"
mpicc.openmpi "${cflags[@]}" -o "$out/pre/entry_skew-ompi" "$repo/bench/coll/entry_skew.c"
mpicc.mpich "${cflags[@]}" -o "$out/pre/entry_skew-mpich" "$repo/bench/coll/entry_skew.c"
cc -O2 -std=c11 -o "$out/pre/memcpy_bw" "$repo/bench/memcpy_bw.c"
cc -O2 -std=c11 -pthread -o "$out/pre/copy_bw_threads" "$repo/bench/copy_bw_threads.c"
cc -O2 -std=c11 -pthread -o "$out/pre/handoff_floor" "$repo/bench/handoff_floor.c"
cc -O2 -std=c11 -pthread -o "$out/pre/pull_patterns" "$repo/bench/pull_patterns.c"
for f in "$out"/pre/*; do strip "$f"; done

# Runtime packages: the MPI launchers' and libraries' packages, then every
# package whose library one of their ELF files (or ours) loads, until no
# new one appears; less what every system has.
roots=(openmpi-bin openmpi-common libopenmpi3 mpich libmpich12 libhwloc15 libhwloc-plugins libnuma1)
base_package() {
    case $1 in libc6 | libgcc-s1 | libstdc++6 | gcc-*-base) return 0 ;; esac
    case $(dpkg-query -W -f '${Priority}' "$1" 2>/dev/null) in required | important) return 0 ;; esac
    return 1
}
packages_of_libraries() { # ELF files on stdin -> the packages of the libraries they load
    while read -r f; do ldd "$f" 2>/dev/null | awk '$3 ~ /^\// { print $3 }'; done | sort -u | while read -r so; do
        dpkg-query -S "$so" 2>/dev/null || dpkg-query -S "$(readlink -f "$so")" 2>/dev/null || true
    done | cut -d: -f1 | sort -u
}
elf_files_of() { # packages -> their ELF files
    dpkg-query -L "$@" 2>/dev/null | while read -r f; do
        [ -f "$f" ] && [ ! -L "$f" ] && head -c 4 "$f" 2>/dev/null | grep -q ELF && echo "$f"
    done
    return 0
}
declare -A have=()
todo=()
for p in "${roots[@]}" $(printf '%s\n' "$hb/lib/libhmpi.so" "$out"/pre/* | packages_of_libraries); do
    [ -z "${have[$p]:-}" ] && ! base_package "$p" && have[$p]=1 && todo+=("$p")
done
while [ ${#todo[@]} -gt 0 ]; do
    next=()
    for p in $(elf_files_of "${todo[@]}" | packages_of_libraries); do
        [ -z "${have[$p]:-}" ] && ! base_package "$p" && have[$p]=1 && next+=("$p")
    done
    todo=("${next[@]}")
done
mapfile -t packages < <(printf '%s\n' "${!have[@]}" | sort)
dpkg-query -L "${packages[@]}" 2>/dev/null | sort -u | while read -r f; do
    case $f in /usr/share/doc/* | /usr/share/man/* | /usr/share/lintian/* | /usr/include/* | /usr/share/info/*) continue ;; esac
    [ -f "$f" ] || [ -L "$f" ] || continue
    echo "${f#/}"
done >"$out/.files"
tar -C / --no-recursion -cf - -T "$out/.files" | xz -6 -T0 >"$out/sys.tar.xz"

{
    echo "bundle made $(date -u +%FT%TZ) on $(. /etc/os-release && echo "$PRETTY_NAME")"
    echo "commit $(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD || echo ' (with uncommitted changes)')"
    echo "files in sys.tar.xz: $(wc -l <"$out/.files")"
    echo "packages:"
    for p in "${packages[@]}"; do echo "  $p $(dpkg-query -W -f '${Version}' "$p")"; done
} >"$out/MANIFEST"
rm -f "$out/.files"
kib=$(du -sk "$out" | cut -f1)
echo "make-bundle.sh: $out: $((kib / 1024)) MiB, ${#packages[@]} packages ($(du -h "$out/sys.tar.xz" | cut -f1) of system files)"
if [ "$kib" -gt $((60 * 1024)) ]; then
    echo "make-bundle.sh: over 60 MiB: the device tool carries 64 MiB in all" >&2
    exit 1
fi
