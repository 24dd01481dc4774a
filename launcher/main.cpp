// hmpirun: starts an HMPI program -- one process whose N threads are the MPI ranks -- and
// supervises it. See docs/launcher.md for the user's view and the control protocol.
//
// A plain executable on purpose: it must not depend on libhmpi, only on the C++ standard library
// and POSIX.

#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "options.hpp"
#include "report.hpp"
#include "supervise.hpp"

#ifndef HMPIRUN_VERSION
#define HMPIRUN_VERSION "unknown"
#endif

namespace hmpirun {
namespace {

// Variables the runtime reads from hmpirun; -x must not contradict -np and --bind-to.
bool set_by_hmpirun(const std::string& name) {
    return name == "HMPI_NP" || name == "HMPI_BIND" || name == "HMPI_CONTROL_FD";
}

// What the program gets on top of hmpirun's own environment: the -x variables, then the
// runtime's contract variables.
std::vector<std::pair<std::string, std::string>> job_environment(const Options& o) {
    std::vector<std::pair<std::string, std::string>> env;
    for (const std::string& x : o.exports) {
        auto eq = x.find('=');
        std::string name = x.substr(0, eq);
        if (set_by_hmpirun(name)) {
            say("warning: ignoring -x " + x + ": hmpirun sets " + name + " itself (see -np and --bind-to)");
        } else if (eq != std::string::npos) {
            env.emplace_back(name, x.substr(eq + 1));
        } else if (const char* value = std::getenv(name.c_str())) {
            env.emplace_back(name, value);
        } else {
            say("warning: -x " + name + ": " + name + " is not set in hmpirun's environment; nothing to pass");
        }
    }
    env.emplace_back("HMPI_NP", std::to_string(o.np));
    env.emplace_back("HMPI_BIND", binding_name(o.binding));
    return env;
}

int run(int argc, char** argv) {
    Options options;
    try {
        std::span<const char* const> args(argv + 1, static_cast<std::size_t>(argc > 0 ? argc - 1 : 0));
        options = parse_command_line(args, std::getenv("MPIEXEC_TIMEOUT"));
    } catch (const UsageError& e) {
        say(e.what());
        std::fputs(usage().c_str(), stderr);
        return 2;
    }
    if (options.help) {
        std::fputs(usage().c_str(), stdout);
        return 0;
    }
    if (options.version) {
        std::puts("hmpirun (HMPI) " HMPIRUN_VERSION);
        return 0;
    }
    return run_job({options.command, job_environment(options), options.timeout});
}

}  // namespace
}  // namespace hmpirun

int main(int argc, char** argv) { return hmpirun::run(argc, argv); }
