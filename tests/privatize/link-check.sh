#!/usr/bin/env bash
# link-check.sh HMPICC HMPI_GLOBALS WORKDIR: the wrappers' link-time check of privatization.
#   1. An object not compiled by the wrappers (plain cc) that references a privatized global
#      makes the link fail, naming the object and the symbol, and leaves no program behind;
#      the same from inside an archive.
#   2. An unplugged object that only defines writable data links, with a warning naming it,
#      and hmpi-globals lists its variable as shared.
#   3. HMPI_SHARED (include/hmpi_privatize.h) keeps a variable shared: hmpi-globals lists it.
#   4. The same for a shared library linked with hmpicc -shared: an unplugged object using the
#      library's privatized global fails the link, and so does a privatized object compiled
#      without -fPIC; hmpi-globals reads the library.
set -u
hmpicc=$1 globals=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
failed=0
fail() { echo "FAIL: $*"; failed=1; }

cat >plugged.c <<'SRC'
#include <hmpi_privatize.h>
int shared_counter = 1;
HMPI_SHARED int on_purpose_shared = 5;
int unplugged_read(void);
int main(void) { return unplugged_read() + on_purpose_shared - 6; }
SRC
cat >unplugged.c <<'SRC'
extern int shared_counter;
int unplugged_read(void) { return shared_counter; }
SRC
cat >legacy.c <<'SRC'
int legacy_table[4] = {1, 2, 3, 4};
int unplugged_read(void) { return legacy_table[0]; }
SRC
"$hmpicc" -c plugged.c -o plugged.o || fail "compiling plugged.c"
cc -c unplugged.c -o unplugged.o || fail "compiling unplugged.c"
cc -c legacy.c -o legacy.o || fail "compiling legacy.c"

out=$("$hmpicc" -o prog plugged.o unplugged.o 2>&1) && fail "the link with unplugged.o succeeded"
echo "$out"
grep -q "unplugged.o" <<<"$out" && grep -q "shared_counter" <<<"$out" || fail "message does not name unplugged.o and shared_counter"
[[ -e prog ]] && fail "a program was left behind"

ar qc libunplugged.a unplugged.o
out=$("$hmpicc" -o prog plugged.o libunplugged.a 2>&1) && fail "the link with libunplugged.a succeeded"
echo "$out"
grep -q "libunplugged.a\[unplugged.o\]" <<<"$out" && grep -q "shared_counter" <<<"$out" || fail "message does not name the archive member"

out=$("$hmpicc" -o prog plugged.o legacy.o 2>&1) || fail "the link with legacy.o failed: $out"
echo "$out"
grep -q "warning: legacy.o.*legacy_table" <<<"$out" || fail "no warning naming legacy.o and legacy_table"
list=$("$globals" ./prog) || fail "hmpi-globals failed"
echo "$list"
grep -Eq "^shared .* legacy_table$" <<<"$list" || fail "hmpi-globals does not list legacy_table as shared"
grep -Eq "^shared .* on_purpose_shared$" <<<"$list" || fail "hmpi-globals does not list the HMPI_SHARED variable"
grep -Eq "^shared .* shared_counter$" <<<"$list" && fail "hmpi-globals lists the privatized shared_counter as shared"
grep -Eq "^privatized: [1-9]" <<<"$list" || fail "hmpi-globals counts no privatized variable"

# 4. The same check for a shared library built with hmpicc -shared (its globals are privatized).
"$hmpicc" -fPIC -c plugged.c -o plugged_pic.o || fail "compiling plugged.c -fPIC"
cc -fPIC -c unplugged.c -o unplugged_pic.o || fail "compiling unplugged.c -fPIC"
out=$("$hmpicc" -shared -o libmixed.so plugged_pic.o unplugged_pic.o 2>&1) && fail "the shared link with unplugged_pic.o succeeded"
echo "$out"
grep -q "unplugged_pic.o" <<<"$out" && grep -q "shared_counter" <<<"$out" || fail "shared: message does not name unplugged_pic.o and shared_counter"
[[ -e libmixed.so ]] && fail "a shared library was left behind"
"$hmpicc" -shared -o libplugged.so plugged_pic.o || fail "the shared link of a privatized object failed"
printf 'static int calls;\nint bump(void) { return ++calls; }\n' >static_only.c
"$hmpicc" -c static_only.c -o static_pie.o || fail "compiling static_only.c"
out=$("$hmpicc" -shared -o libpie.so static_pie.o 2>&1) && fail "the shared link of a -fPIE privatized object succeeded"
echo "$out"
grep -q "static_pie.o.*-fPIC" <<<"$out" || fail "shared: message does not name static_pie.o and -fPIC"
[[ -e libpie.so ]] && fail "a shared library from a -fPIE object was left behind"
list=$("$globals" ./libplugged.so) || fail "hmpi-globals on a shared library failed"
echo "$list"
grep -Eq "^privatized: [1-9]" <<<"$list" || fail "hmpi-globals counts no privatized variable in the shared library"
grep -Eq "^shared .* on_purpose_shared$" <<<"$list" || fail "hmpi-globals does not list the library's HMPI_SHARED variable"

((failed == 0)) && echo "link-check: all passed"
exit $failed
