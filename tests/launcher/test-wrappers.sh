#!/usr/bin/env bash
# test-wrappers.sh HMPICC HMPICXX INCLUDE_DIR LIB_DIR [SANITIZE_FLAGS]
#
# What hmpicc/hmpicxx pass to the compiler, checked without libhmpi: HMPI_CC/HMPI_CXX point at a
# fake compiler that records its arguments, one per line. (The end-to-end tests that really
# compile, link and run MPI programs are the launcher.hmpicc_* / launcher.hmpicxx_* tests.)
# SANITIZE_FLAGS: what the wrappers add in a sanitizer build (HMPI_SANITIZE), as one word.
# Prints every failure, then "N passed, N failed"; exits 1 if any case failed.
set -u
hmpicc=$1
hmpicxx=$2
inc=$3
lib=$4
read -r -a san <<<"${5:-}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

fakecc=$work/fakecc
cat >"$fakecc" <<'EOF'
#!/usr/bin/env bash
if (($# > 0)); then printf '%s\n' "$@"; fi >"${FAKECC_LOG:?}"
exit "${FAKECC_STATUS:-0}"
EOF
chmod +x "$fakecc"
export FAKECC_LOG=$work/args HMPI_CC=$fakecc HMPI_CXX=$fakecc

cflags=("-I$inc" "${san[@]}")
link=("-L$lib" "-Wl,-rpath,$lib" "-Wl,--wrap=main" "-Wl,--wrap=pthread_create" "$lib/libhmpi_main.a" -lhmpi -pthread "${san[@]}")
shared=("-L$lib" "-Wl,-rpath,$lib" -lhmpi -pthread "${san[@]}")
san_re=""  # the sanitizer flags in a -show regex
((${#san[@]} > 0)) && san_re=" ${san[*]}"

passed=0
failed=0

# check NAME EXPECTED-ARGS... -- WRAPPER-COMMAND...: the fake compiler must get exactly EXPECTED-ARGS.
check() {
    local name=$1 expected=() got
    shift
    while [[ $1 != -- ]]; do expected+=("$1"); shift; done
    shift
    rm -f "$FAKECC_LOG"
    "$@" >"$work/out" 2>&1
    local rc=$?
    got=$(cat "$FAKECC_LOG" 2>/dev/null)
    if [[ $rc == 0 && -e $FAKECC_LOG && $got == "$(printf '%s\n' "${expected[@]}")" ]]; then
        pass "$name"
    else
        fail "$name" "status $rc; compiler arguments:" "$(printf '[%s] ' "${@:2}")" "got:" "$got" \
            "expected:" "$(printf '%s\n' "${expected[@]}")" "output:" "$(cat "$work/out")"
    fi
}

# check_output NAME REGEX WRAPPER-COMMAND...: the wrapper's own output must match REGEX, and the
# compiler must not have run (for -show and friends).
check_output() {
    local name=$1 regex=$2
    shift 2
    rm -f "$FAKECC_LOG"
    local out rc
    out=$("$@" 2>&1)
    rc=$?
    if [[ $rc == 0 && ! -e $FAKECC_LOG ]] && grep -Eq -e "$regex" <<<"$out"; then
        pass "$name"
    else
        fail "$name" "status $rc; output:" "$out" "expected to match: $regex" \
            "$([[ -e $FAKECC_LOG ]] && echo "the compiler ran")"
    fi
}

pass() { passed=$((passed + 1)); echo "PASS  $1"; }
fail() {
    failed=$((failed + 1))
    echo "FAIL  $1"
    shift
    printf '        %s\n' "$@"
}

# ---- what reaches the compiler ------------------------------------------------------------

check "link: include, stub with --wrap=main, libhmpi" \
    "${cflags[@]}" -o app app.c "${link[@]}" -- "$hmpicc" -o app app.c
check "link objects only (CC=hmpicc ./configure style)" \
    "${cflags[@]}" -o app a.o b.o -lm "${link[@]}" -- "$hmpicc" -o app a.o b.o -lm
check "-c: include only" "${cflags[@]}" -c app.c -o app.o -- "$hmpicc" -c app.c -o app.o
check "-E: include only" "${cflags[@]}" -E app.c -- "$hmpicc" -E app.c
check "-S: include only" "${cflags[@]}" -S app.c -- "$hmpicc" -S app.c
check "-M: include only" "${cflags[@]}" -M app.c -- "$hmpicc" -M app.c
check "-MM: include only" "${cflags[@]}" -MM app.c -- "$hmpicc" -MM app.c
check "-fsyntax-only: include only" "${cflags[@]}" -fsyntax-only app.c -- "$hmpicc" -fsyntax-only app.c
check "-MD -c: include only" "${cflags[@]}" -MD -MF app.d -c app.c -- "$hmpicc" -MD -MF app.d -c app.c
check "-MD without -c still links" "${cflags[@]}" -MD -o app app.c "${link[@]}" -- "$hmpicc" -MD -o app app.c
check "-r (partial link): include only" "${cflags[@]}" -r -o all.o a.o b.o -- "$hmpicc" -r -o all.o a.o b.o
check "-shared: libhmpi but no stub and no --wrap=main" \
    "${cflags[@]}" -shared -fPIC -o libx.so x.c "${shared[@]}" -- "$hmpicc" -shared -fPIC -o libx.so x.c
check "-x c: language reset before the stub archive" \
    "${cflags[@]}" -x c - -o app -x none "${link[@]}" -- "$hmpicc" -x c - -o app
check "arguments with spaces and quotes stay intact" \
    "${cflags[@]}" "-DMSG=\"hello world\"" -c "my file.c" -- "$hmpicc" "-DMSG=\"hello world\"" -c "my file.c"
check "--version passes through untouched" --version -- "$hmpicc" --version
check "-v alone passes through untouched" -v -- "$hmpicc" -v
check "-dumpversion passes through untouched" -dumpversion -- "$hmpicc" -dumpversion
check "-print-prog-name=ld passes through untouched" -print-prog-name=ld -- "$hmpicc" -print-prog-name=ld
check "hmpicxx: same flags" "${cflags[@]}" -o app app.cpp "${link[@]}" -- "$hmpicxx" -o app app.cpp
check "HMPI_CC with several words" --driver-mode -c "${cflags[@]}" -c app.c -- \
    env HMPI_CC="$fakecc --driver-mode -c" "$hmpicc" -c app.c

rm -f "$FAKECC_LOG"
FAKECC_STATUS=3 "$hmpicc" -c app.c >/dev/null 2>&1
rc=$?
if [[ $rc == 3 ]]; then pass "compiler's exit status is the wrapper's"; else fail "compiler's exit status is the wrapper's" "got $rc"; fi

rm -f "$FAKECC_LOG"
"$hmpicc" >/dev/null 2>&1
if [[ -e $FAKECC_LOG && ! -s $FAKECC_LOG ]]; then pass "no arguments: compiler run bare"
else fail "no arguments: compiler run bare" "arguments: $(cat "$FAKECC_LOG" 2>/dev/null)"; fi

# ---- -show and friends ----------------------------------------------------------------------

check_output "-show prints the link command" \
    "^[^ ]*fakecc -I[^ ]*include$san_re -o app app.c -L.* -Wl,--wrap=main -Wl,--wrap=pthread_create [^ ]*libhmpi_main.a -lhmpi -pthread$san_re$" \
    "$hmpicc" -show -o app app.c
check_output "-showme too" "--wrap=main" "$hmpicc" -showme -o app app.c
check_output "--showme too" "--wrap=main" "$hmpicc" --showme -o app app.c
check_output "-show alone shows the whole link line" "^[^ ]*fakecc -I.* -Wl,--wrap=main .*-lhmpi -pthread$san_re$" \
    "$hmpicc" -show
check_output "-show -c: no link flags" "^[^ ]*fakecc -I[^ ]*$san_re -c app.c$" "$hmpicc" -show -c app.c
check_output "-show quotes words with spaces" "'my file.c'|my\\\\ file.c" "$hmpicc" -show -c "my file.c"
check_output "-showme:compile" "^-I[^ ]*include$san_re$" "$hmpicc" -showme:compile
check_output "-showme:link" "^-L[^ ]* -Wl,-rpath,[^ ]* -Wl,--wrap=main -Wl,--wrap=pthread_create [^ ]*libhmpi_main.a -lhmpi -pthread$san_re$" \
    "$hmpicc" -showme:link
# (clang-14 where HMPI was built with privatization of globals: docs/privatization.md)
check_output "default compiler of hmpicc is cc" "^(cc|clang-14) " env -u HMPI_CC "$hmpicc" -show -c app.c
check_output "default compiler of hmpicxx is c++" "^(c\+\+|clang\+\+-14) " env -u HMPI_CXX "$hmpicxx" -show -c app.cpp
check_output "empty HMPI_CC means the default" "^(cc|clang-14) " env HMPI_CC= "$hmpicc" -show -c app.c

# ---- the real compiler ----------------------------------------------------------------------

# mpi.h must be found through the wrapper's -I, and plain C must compile as usual.
printf '#include <mpi.h>\nint ok = MPI_VERSION;\n' >with_mpi_h.c
if env -u HMPI_CC "$hmpicc" -c with_mpi_h.c -o with_mpi_h.o >"$work/out" 2>&1 && [[ -s with_mpi_h.o ]]; then
    pass "real cc finds mpi.h through hmpicc"
else
    fail "real cc finds mpi.h through hmpicc" "$(cat "$work/out")"
fi
if env -u HMPI_CXX "$hmpicxx" -x c++ -c with_mpi_h.c -o with_mpi_h_cxx.o >"$work/out" 2>&1; then
    pass "real c++ finds mpi.h through hmpicxx"
else
    fail "real c++ finds mpi.h through hmpicxx" "$(cat "$work/out")"
fi
# As configure uses it, CPP="hmpicc -E": MPI_VERSION must come out expanded.
if env -u HMPI_CC "$hmpicc" -E - <<<$'#include <mpi.h>\nHMPI_PROBE MPI_VERSION' >"$work/out" 2>&1 &&
    grep -Eq '^HMPI_PROBE [0-9]+$' "$work/out"; then
    pass "real cc -E through hmpicc"
else
    fail "real cc -E through hmpicc" "$(tail -5 "$work/out")"
fi

echo
echo "$passed passed, $failed failed"
((failed == 0))
