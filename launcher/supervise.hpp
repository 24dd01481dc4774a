// Starting the program and supervising it to the end.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "options.hpp"

namespace hmpirun {

struct Job {
    std::vector<std::string> command;  // program (looked up in PATH) and arguments
    // Set in the program's environment on top of hmpirun's own; HMPI_CONTROL_FD is added by
    // run_job because only it knows the descriptor.
    std::vector<std::pair<std::string, std::string>> environment;
    std::optional<Timeout> timeout;
};

// How long the program gets, after the timeout signal, to report its rank states and die before
// hmpirun kills it.
inline constexpr std::chrono::seconds kill_grace{5};

// Runs the job: forks and execs the program, relays its control lines, forwards signals, enforces
// the timeout, and returns hmpirun's exit status (see docs/launcher.md).
int run_job(const Job& job);

}  // namespace hmpirun
