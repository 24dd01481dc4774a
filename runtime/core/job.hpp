// Starting and ending the job: rank threads, placement, and how a job ends
// (normal exit, MPI_Abort, a fatal MPI error, a crash, a timeout dump).
#pragma once

namespace hmpi {

using UserMain = int (*)(int, char**, char**);

// Runs `user_main` once per rank (HMPI_NP ranks; 1 without hmpirun) and
// returns the job's exit status: the status of the lowest rank that returned
// non-zero, else 0. Called once, by the startup stub's __wrap_main.
int start_job(int argc, char** argv, char** envp, UserMain user_main);

// Ends the whole job now: reports `line` (an event naming the rank and the
// cause), flushes stdio and exits the process with `status`.
[[noreturn]] void end_job(int status, const char* line);

}  // namespace hmpi
