#!/usr/bin/env bash
# test-hmpirun.sh HMPIRUN FAKE_CHILD
#
# hmpirun's behaviour without libhmpi: FAKE_CHILD (fake_child.c) plays the runtime's side of the
# control protocol as scripted by its arguments. Each case checks exit status and output; the
# script prints every failure, then "N passed, N failed", and exits 1 if any case failed.
set -u
hmpirun=$1
fake=$2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ulimit -c 0  # the signal cases must not leave core files behind
unset MPIEXEC_TIMEOUT

passed=0
failed=0

# A case: begin NAME; run COMMAND...; then checks; then end.
begin() {
    name=$1
    problems=()
    start=$SECONDS
}
run() {
    "$@" >"$work/out" 2>"$work/err"
    rc=$?
}
problem() { problems+=("$1"); }
want_rc() { [[ $rc == "$1" ]] || problem "exit status $rc, expected $1"; }
want_out() { grep -Eq -e "$1" "$work/out" || problem "stdout lacks /$1/"; }
want_err() { grep -Eq -e "$1" "$work/err" || problem "stderr lacks /$1/"; }
lacks_err() { ! grep -Eq -e "$1" "$work/err" || problem "stderr has /$1/"; }
want_err_exactly() { [[ $(<"$work/err") == "$1" ]] || problem "stderr is not exactly: $1"; }
want_out_exactly() { [[ $(<"$work/out") == "$1" ]] || problem "stdout is not exactly: $1"; }
took_at_most() { (( SECONDS - start <= $1 )) || problem "took $((SECONDS - start)) s, expected at most $1 s"; }
took_at_least() { (( SECONDS - start >= $1 )) || problem "took $((SECONDS - start)) s, expected at least $1 s"; }
end() {
    if ((${#problems[@]} == 0)); then
        passed=$((passed + 1))
        echo "PASS  $name"
        return
    fi
    failed=$((failed + 1))
    echo "FAIL  $name"
    printf '        %s\n' "${problems[@]}"
    echo "      --- stdout:"; sed 's/^/        /' "$work/out"
    echo "      --- stderr:"; sed 's/^/        /' "$work/err"
}

# Waits (up to 10 s) until FILE exists: the fake child creates it once it is ready for a signal.
await() {
    for _ in $(seq 100); do
        [[ -e $1 ]] && return 0
        sleep 0.1
    done
    return 1
}

# ---- exit status and control lines ----------------------------------------------------------

begin "exit status 0"
run "$hmpirun" "$fake" exit 0
want_rc 0
want_err_exactly ""
end

begin "exit status propagates, control line relayed"
run "$hmpirun" -np 4 "$fake" line "rank 2 exited with status 3" exit 3
want_rc 3
want_err_exactly "hmpirun: rank 2 exited with status 3"
end

begin "exit status 255"
run "$hmpirun" "$fake" exit 255
want_rc 255
end

begin "several lines relayed in order, an unterminated last line too"
run "$hmpirun" "$fake" line "rank 0 first" line "rank 1 second" partial "rank 2 cut short" exit 1
want_rc 1
want_err_exactly $'hmpirun: rank 0 first\nhmpirun: rank 1 second\nhmpirun: rank 2 cut short'
end

begin "control lines relayed while the program runs"
rm -f "$work/ready"
"$hmpirun" "$fake" line "rank 0 called MPI_Abort(MPI_COMM_WORLD, 5)" ready "$work/ready" sleep 30 \
    >"$work/out" 2>"$work/err" &
pid=$!
await "$work/ready" || problem "fake child never got ready"
relayed=no
for _ in $(seq 50); do  # up to 5 s; the program runs for 30
    grep -q "^hmpirun: rank 0 called MPI_Abort(MPI_COMM_WORLD, 5)$" "$work/err" && { relayed=yes; break; }
    sleep 0.1
done
[[ $relayed == yes ]] || problem "the line was not relayed while the program ran"
kill -TERM "$pid"
wait "$pid"
rc=$?
want_rc 143
end

begin "program output passes through; stdin is the program's"
run bash -c "echo hello | '$hmpirun' sh -c 'read x; echo \"got \$x\"; echo to-stderr >&2'"
want_rc 0
want_out_exactly "got hello"
want_err_exactly "to-stderr"
end

# ---- death by signal ------------------------------------------------------------------------

begin "killed by SIGSEGV: 128+11 and a message"
run "$hmpirun" "$fake" raise 11
want_rc 139
want_err_exactly "hmpirun: job terminated by signal 11 (Segmentation fault)"
end

begin "killed by SIGKILL: 128+9"
run "$hmpirun" "$fake" raise 9
want_rc 137
want_err "^hmpirun: job terminated by signal 9 \(Killed\)$"
end

begin "a rank line that explains the signal replaces the job message"
run "$hmpirun" -np 2 "$fake" line "rank 1 terminated by signal 11 (Segmentation fault) in MPI_Recv" raise 11
want_rc 139
want_err "^hmpirun: rank 1 terminated by signal 11 \(Segmentation fault\) in MPI_Recv$"
lacks_err "job terminated"
end

begin "a rank line about another signal does not"
run "$hmpirun" -np 2 "$fake" line "rank 1 terminated by signal 6 (Aborted)" raise 11
want_rc 139
want_err "^hmpirun: job terminated by signal 11 "
end

# ---- timeout --------------------------------------------------------------------------------

begin "--timeout: 124, heading, every rank's state relayed"
run "$hmpirun" -np 3 --timeout 1 "$fake" hang
want_rc 124
want_err_exactly $'hmpirun: job timed out after 1 s; rank states:\nhmpirun: rank 0: blocked in MPI_Recv\nhmpirun: rank 1: blocked in MPI_Recv\nhmpirun: rank 2: blocked in MPI_Recv'
took_at_most 4  # the child kills itself: no 5 s grace period
end

begin "-timeout spelling"
run "$hmpirun" -timeout 1 "$fake" hang
want_rc 124
want_err "^hmpirun: rank 0: blocked in MPI_Recv$"
end

begin "MPIEXEC_TIMEOUT"
run env MPIEXEC_TIMEOUT=1 "$hmpirun" -np 2 "$fake" hang
want_rc 124
want_err "^hmpirun: job timed out after 1 s; rank states:$"
want_err "^hmpirun: rank 1: blocked in MPI_Recv$"
end

begin "--timeout wins over MPIEXEC_TIMEOUT (shorter)"
run env MPIEXEC_TIMEOUT=100 "$hmpirun" --timeout 1 "$fake" hang
want_rc 124
took_at_most 4
end

begin "--timeout 0 wins over MPIEXEC_TIMEOUT (none)"
run env MPIEXEC_TIMEOUT=1 "$hmpirun" --timeout 0 "$fake" sleep 1.5 exit 0
want_rc 0
want_err_exactly ""
end

begin "empty MPIEXEC_TIMEOUT means none"
run env MPIEXEC_TIMEOUT= "$hmpirun" "$fake" exit 0
want_rc 0
end

begin "fractional timeout"
run "$hmpirun" --timeout 0.5 "$fake" hang
want_rc 124
want_err "^hmpirun: job timed out after 0.5 s; rank states:$"
end

begin "program that ignores the timeout signal is killed after 5 s"
run "$hmpirun" --timeout 1 "$fake" hang-deaf
want_rc 124
want_err "^hmpirun: job still running 5 s after the timeout; killing it$"
want_err "^hmpirun: no rank states were reported$"
lacks_err "job terminated"
took_at_least 5
took_at_most 9
end

begin "timeout of a program without the runtime (dies of the signal)"
run "$hmpirun" --timeout 1 sleep 30
want_rc 124
want_err "^hmpirun: no rank states were reported$"
took_at_most 4
end

begin "a program that ends in time is not affected by the timeout"
run "$hmpirun" --timeout 10 "$fake" exit 6
want_rc 6
want_err_exactly ""
end

# ---- starting the program -------------------------------------------------------------------

begin "exec failure: no such file"
run "$hmpirun" "$work/no/such/program" arg
want_rc 127
want_err_exactly "hmpirun: cannot run '$work/no/such/program': No such file or directory"
end

begin "exec failure: not executable"
printf 'not a program\n' >"$work/plain"
chmod 644 "$work/plain"
run "$hmpirun" "$work/plain"
want_rc 127
want_err "^hmpirun: cannot run '.*/plain': Permission denied$"
end

begin "exec failure: not in PATH"
run "$hmpirun" hmpi-no-such-command-anywhere
want_rc 127
want_err "^hmpirun: cannot run 'hmpi-no-such-command-anywhere': No such file or directory$"
end

begin "PATH lookup"
run env PATH="$(dirname "$fake"):$PATH" "$hmpirun" "$(basename "$fake")" exit 4
want_rc 4
end

begin "arguments after the program are the program's, verbatim"
run "$hmpirun" -np 2 "$fake" echo -np 5 "a b" "" --timeout
want_rc 0
want_out_exactly "argc=5 [-np] [5] [a b] [] [--timeout]"
end

begin "-- ends the options"
run "$hmpirun" -np 2 -- "$fake" env HMPI_NP
want_rc 0
want_out_exactly "HMPI_NP=2"
end

begin "only the control descriptor is added to what the program inherits"
read -r -a baseline <<<"$("$fake" fds)"
run "$hmpirun" "$fake" env HMPI_CONTROL_FD fds
control=$(sed -n 's/^HMPI_CONTROL_FD=//p' "$work/out")
[[ $control =~ ^[0-9]+$ ]] || problem "HMPI_CONTROL_FD is not a number: '$control'"
expected=$(printf '%s\n' "${baseline[@]}" "$control" | sort -n | tr '\n' ' ')
got=$(sed -n 2p "$work/out" | tr ' ' '\n' | sed '/^$/d' | sort -n | tr '\n' ' ')
[[ $got == "$expected" ]] || problem "open descriptors '$got', expected '$expected'"
end

begin "a grandchild holding the control pipe does not keep hmpirun waiting"
run "$hmpirun" sh -c 'sleep 3 & exit 5'
want_rc 5
took_at_most 2
end

# ---- environment ----------------------------------------------------------------------------

begin "defaults: HMPI_NP=1, HMPI_BIND=core, HMPI_CONTROL_FD set"
run "$hmpirun" "$fake" env HMPI_NP env HMPI_BIND env HMPI_CONTROL_FD
want_rc 0
want_out "^HMPI_NP=1$"
want_out "^HMPI_BIND=core$"
want_out "^HMPI_CONTROL_FD=[0-9]+$"
end

for form in -np -n --np --n -c; do
    begin "$form 5"
    run "$hmpirun" "$form" 5 "$fake" env HMPI_NP
    want_rc 0
    want_out_exactly "HMPI_NP=5"
    end
done

begin "--np=6 and -np=7 (the last one wins)"
run "$hmpirun" --np=6 -np=7 "$fake" env HMPI_NP
want_rc 0
want_out_exactly "HMPI_NP=7"
end

for form in --bind-to -bind-to; do
    begin "$form none / core"
    run "$hmpirun" "$form" none "$fake" env HMPI_BIND
    want_rc 0
    want_out_exactly "HMPI_BIND=none"
    run "$hmpirun" "$form" core "$fake" env HMPI_BIND
    want_out_exactly "HMPI_BIND=core"
    end
done

begin "-x VAR=value, repeatable, '=' in values, empty values"
run "$hmpirun" -x FOO=bar -x EQ=a=b -x EMPTY= -x FOO2=x "$fake" env FOO env EQ env EMPTY env FOO2
want_rc 0
want_out_exactly $'FOO=bar\nEQ=a=b\nEMPTY=\nFOO2=x'
want_err_exactly ""
end

begin "-x VAR=value overrides the inherited value"
run env FOO=outer "$hmpirun" -x FOO=inner "$fake" env FOO
want_out_exactly "FOO=inner"
end

begin "-x VAR exports hmpirun's own VAR"
run env HMPI_TEST_EXPORTED="from outside" "$hmpirun" -x HMPI_TEST_EXPORTED "$fake" env HMPI_TEST_EXPORTED
want_rc 0
want_out_exactly "HMPI_TEST_EXPORTED=from outside"
end

begin "-x VAR of an unset variable: warning, job runs"
run env -u HMPI_TEST_UNSET "$hmpirun" -x HMPI_TEST_UNSET "$fake" env HMPI_TEST_UNSET
want_rc 0
want_out_exactly "HMPI_TEST_UNSET is unset"
want_err "warning: -x HMPI_TEST_UNSET: .*not set"
end

begin "-x cannot override what -np sets"
run "$hmpirun" -np 2 -x HMPI_NP=7 "$fake" env HMPI_NP
want_rc 0
want_out_exactly "HMPI_NP=2"
want_err "warning: ignoring -x HMPI_NP=7"
end

begin "--oversubscribe and --allow-run-as-root are accepted"
run "$hmpirun" --oversubscribe -oversubscribe --allow-run-as-root -np 64 "$fake" env HMPI_NP
want_rc 0
want_out_exactly "HMPI_NP=64"
want_err_exactly ""
end

# ---- signals to hmpirun ---------------------------------------------------------------------

# With job control on, background jobs are in their own process group and do not start with
# SIGINT ignored -- so a signal reaches the program only if hmpirun forwards it.
set -m
for sig in TERM INT HUP; do
    begin "SIG$sig is forwarded to the program"
    rm -f "$work/ready"
    "$hmpirun" "$fake" catch ready "$work/ready" sleep 30 >"$work/out" 2>"$work/err" &
    pid=$!
    await "$work/ready" || problem "fake child never got ready"
    kill -"$sig" "$pid"
    wait "$pid"
    rc=$?
    want_rc 42
    want_err "^hmpirun: rank 0 caught signal $(kill -l "$sig")$"
    lacks_err "job terminated"
    end
done
set +m

begin "SIGINT ignored when hmpirun started stays ignored (not forwarded)"
rm -f "$work/ready"
# Without job control, bash starts background jobs with SIGINT ignored.
"$hmpirun" "$fake" ready "$work/ready" sleep 1 exit 0 >"$work/out" 2>"$work/err" &
pid=$!
await "$work/ready" || problem "fake child never got ready"
kill -INT "$pid"
wait "$pid"
rc=$?
want_rc 0
end

# ---- command line errors --------------------------------------------------------------------

bad() {  # bad NAME REGEX ARGS...: hmpirun ARGS must fail with status 2, REGEX and the usage
    local regex=$2
    begin "bad command line: $1"
    shift 2
    run "$hmpirun" "$@"
    want_rc 2
    want_err "$regex"
    want_err "^usage: hmpirun "
    end
}
bad "nothing" "no program given"
bad "no program after options" "no program given" -np 2
bad "no program after --" "no program given" -np 2 --
bad "-np without value" "-np needs a value" -np
bad "-np 0" "-np needs a number of ranks between 1 and" -np 0 "$fake"
bad "-np -1" "-np needs a number of ranks" -np -1 "$fake"
bad "-np x" "-np needs a number of ranks" -np x "$fake"
bad "-np 3x" "-np needs a number of ranks" -np 3x "$fake"
bad "-n too large" "-n needs a number of ranks" -n 99999999999 "$fake"
bad "unknown option" "unknown option '--bogus'" --bogus "$fake"
bad "unknown single-dash option" "unknown option '-q'" -q "$fake"
bad "--bind-to socket" "--bind-to supports 'core' and 'none', not 'socket'" --bind-to socket "$fake"
bad "--timeout -1" "--timeout needs a number of seconds" --timeout -1 "$fake"
bad "--timeout abc" "--timeout needs a number of seconds" --timeout abc "$fake"
bad "--timeout 1e3" "--timeout needs a number of seconds" --timeout 1e3 "$fake"
bad "-x without value" "-x needs a value" -x
bad "-x =value" "-x needs VAR or VAR=value" -x =v "$fake"
bad "-x -np" "-x needs VAR or VAR=value" -x -np 2 "$fake"

begin "bad command line: MPIEXEC_TIMEOUT=abc"
run env MPIEXEC_TIMEOUT=abc "$hmpirun" "$fake" exit 0
want_rc 2
want_err "MPIEXEC_TIMEOUT needs a number of seconds"
want_err "^usage: hmpirun "
end

for form in -h --help; do
    begin "$form"
    run "$hmpirun" "$form" --bogus
    want_rc 0
    want_out "^usage: hmpirun "
    want_out "--bind-to"
    want_err_exactly ""
    end
done

begin "--version"
run "$hmpirun" --version
want_rc 0
want_out "^hmpirun \(HMPI\) [0-9]"
end

echo
echo "$passed passed, $failed failed"
((failed == 0))
