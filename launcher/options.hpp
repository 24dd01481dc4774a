// hmpirun's command line: what mpirun/mpiexec users type, parsed into Options.
#pragma once

#include <chrono>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace hmpirun {

enum class Binding { core, none };

const char* binding_name(Binding b);

struct Timeout {
    std::chrono::milliseconds duration;
    std::string text;  // as the user wrote it, so messages echo their number
};

struct Options {
    int np = 1;  // MPI's default for a bare `mpirun prog` is implementation-defined; one rank is the least surprising
    Binding binding = Binding::core;
    std::vector<std::string> exports;  // -x arguments, in command-line order: VAR or VAR=value
    std::optional<Timeout> timeout;    // absent when none was asked for (or it was 0)
    bool help = false;
    bool version = false;
    std::vector<std::string> command;  // the program and its arguments
};

// A bad command line: main prints what() and the usage, and exits with status 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The largest -np hmpirun accepts; the runtime rejects a larger HMPI_NP, so saying so up front
// gives the user a usage error instead of a failure from inside the program.
inline constexpr int max_np = 1 << 20;

// args: argv[1..argc). mpiexec_timeout: the MPIEXEC_TIMEOUT environment variable or nullptr;
// it applies only when the command line has no --timeout. Throws UsageError.
Options parse_command_line(std::span<const char* const> args, const char* mpiexec_timeout);

// Parses a timeout in seconds ("10", "2.5"). Returns nullopt for zero (= no timeout).
// Throws UsageError naming `what` (the option or variable it came from).
std::optional<Timeout> parse_timeout(const std::string& what, const std::string& text);

std::string usage();

}  // namespace hmpirun
