#include "options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>

namespace hmpirun {

namespace {

enum class Opt { np, bind, export_var, timeout, oversubscribe, allow_root, help, version };

struct OptionSpec {
    std::string_view name;
    Opt opt;
    bool takes_value;
};

// Both the single- and double-dash spellings that Open MPI and MPICH users type.
constexpr OptionSpec option_specs[] = {
    {"-np", Opt::np, true},
    {"--np", Opt::np, true},
    {"-n", Opt::np, true},
    {"--n", Opt::np, true},
    {"-c", Opt::np, true},
    {"--bind-to", Opt::bind, true},
    {"-bind-to", Opt::bind, true},
    {"-x", Opt::export_var, true},
    {"--timeout", Opt::timeout, true},
    {"-timeout", Opt::timeout, true},
    {"--oversubscribe", Opt::oversubscribe, false},
    {"-oversubscribe", Opt::oversubscribe, false},
    {"--allow-run-as-root", Opt::allow_root, false},
    {"-allow-run-as-root", Opt::allow_root, false},
    {"-h", Opt::help, false},
    {"--help", Opt::help, false},
    {"-help", Opt::help, false},
    {"--version", Opt::version, false},
    {"-version", Opt::version, false},
};

const OptionSpec* find_option(std::string_view name) {
    for (const auto& spec : option_specs)
        if (spec.name == name) return &spec;
    return nullptr;
}

// Seconds above this are surely a typo, and keeping them small keeps the millisecond arithmetic exact.
constexpr double max_timeout_s = 1e7;

int parse_np(const std::string& opt, const std::string& text) {
    int n = 0;
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, n);
    if (ec != std::errc{} || p != end || n < 1 || n > max_np)
        throw UsageError(opt + " needs a number of ranks between 1 and " + std::to_string(max_np) + ", not '" +
                         text + "'");
    return n;
}

Binding parse_binding(const std::string& opt, const std::string& text) {
    if (text == "core") return Binding::core;
    if (text == "none") return Binding::none;
    throw UsageError(opt + " supports 'core' and 'none', not '" + text + "'");
}

bool is_env_name(std::string_view name) {
    auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
    auto alnum = [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); };
    return !name.empty() && alpha(name.front()) && std::all_of(name.begin(), name.end(), alnum);
}

// Checked here rather than when the environment is built so that `-x -np` and `-x =1` are usage
// errors reported with the usage text.
std::string check_export(const std::string& text) {
    std::string_view name = std::string_view(text).substr(0, text.find('='));
    if (!is_env_name(name))
        throw UsageError("-x needs VAR or VAR=value with VAR a variable name, not '" + text + "'");
    return text;
}

// Splits "--name=value" into name and value when name is an option that takes a value, so
// `--np=4` and `--timeout=10` work as well as `--np 4`.
bool split_inline_value(const std::string& arg, std::string& name, std::string& value) {
    auto eq = arg.find('=');
    if (eq == std::string::npos) return false;
    const OptionSpec* spec = find_option(std::string_view(arg).substr(0, eq));
    if (!spec || !spec->takes_value) return false;
    name = arg.substr(0, eq);
    value = arg.substr(eq + 1);
    return true;
}

void apply(Options& o, Opt opt, const std::string& name, const std::string& value) {
    switch (opt) {
        case Opt::np: o.np = parse_np(name, value); break;
        case Opt::bind: o.binding = parse_binding(name, value); break;
        case Opt::export_var: o.exports.push_back(check_export(value)); break;
        case Opt::timeout: o.timeout = parse_timeout(name, value); break;
        case Opt::oversubscribe: break;  // ranks are threads: more ranks than cores always works
        case Opt::allow_root: break;     // hmpirun has no reason to refuse root
        case Opt::help: o.help = true; break;
        case Opt::version: o.version = true; break;
    }
}

}  // namespace

const char* binding_name(Binding b) { return b == Binding::core ? "core" : "none"; }

std::optional<Timeout> parse_timeout(const std::string& what, const std::string& text) {
    // Plain decimal only: strtod alone would also take "inf", "1e3", "0x10" and leading blanks.
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    auto dot = text.find('.');
    std::string_view whole = std::string_view(text).substr(0, dot);
    std::string_view frac = dot == std::string::npos ? std::string_view{} : std::string_view(text).substr(dot + 1);
    bool well_formed = !whole.empty() && std::all_of(whole.begin(), whole.end(), digit) &&
                       (dot == std::string::npos || (!frac.empty() && std::all_of(frac.begin(), frac.end(), digit)));
    double seconds = 0;
    if (well_formed) {
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
        well_formed = ec == std::errc{} && p == text.data() + text.size() && seconds <= max_timeout_s;
    }
    if (!well_formed) throw UsageError(what + " needs a number of seconds (0 = no timeout), not '" + text + "'");
    if (seconds == 0) return std::nullopt;
    // Round up so that a tiny positive timeout is not mistaken for "none".
    auto ms = std::chrono::milliseconds(static_cast<long long>(std::ceil(seconds * 1000)));
    return Timeout{ms, text};
}

Options parse_command_line(std::span<const char* const> args, const char* mpiexec_timeout) {
    Options o;
    bool timeout_on_command_line = false;
    std::size_t i = 0;
    for (; i < args.size(); ++i) {
        std::string arg = args[i];
        if (arg == "--") {
            ++i;
            break;
        }
        // Options end at the first non-option: the program. "-" alone is not an option either.
        if (arg.size() < 2 || arg[0] != '-') break;

        std::string name = arg, value;
        bool inline_value = split_inline_value(arg, name, value);
        const OptionSpec* spec = find_option(name);
        if (!spec) throw UsageError("unknown option '" + arg + "'");
        if (spec->takes_value && !inline_value) {
            if (i + 1 == args.size()) throw UsageError(name + " needs a value");
            value = args[++i];
        }
        apply(o, spec->opt, name, value);
        timeout_on_command_line |= spec->opt == Opt::timeout;
        // Like other tools, --help and --version answer at once and ignore what follows.
        if (o.help || o.version) return o;
    }
    o.command.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
    if (o.command.empty()) throw UsageError("no program given");

    // The command line wins over the environment, including --timeout 0 (= none).
    if (!timeout_on_command_line && mpiexec_timeout && *mpiexec_timeout)
        o.timeout = parse_timeout("MPIEXEC_TIMEOUT", mpiexec_timeout);
    return o;
}

std::string usage() {
    return "usage: hmpirun [options] program [args...]\n"
           "\n"
           "Runs program as one process in which N threads each enter main as an MPI rank.\n"
           "Options end at the first argument that is not an option (the program) or at --.\n"
           "\n"
           "options:\n"
           "  -n, -np, --np, --n, -c N   number of ranks (default 1)\n"
           "  --bind-to core|none        pin rank i to the i-th core, wrapping around when there are\n"
           "                             more ranks than cores (core, the default), or do not pin (none)\n"
           "  -x VAR=value               set VAR in the program's environment (repeatable)\n"
           "  -x VAR                     pass hmpirun's own VAR (the program inherits the whole\n"
           "                             environment anyway; accepted for mpirun scripts)\n"
           "  --timeout S                after S seconds print what every rank is blocked in and end\n"
           "                             the job with status 124 (default: $MPIEXEC_TIMEOUT, else none;\n"
           "                             0 = none)\n"
           "  --oversubscribe            accepted, no effect: more ranks than cores always works\n"
           "  --allow-run-as-root        accepted, no effect\n"
           "  -h, --help                 print this help\n"
           "  --version                  print hmpirun's version\n"
           "\n"
           "Exit status: the program's; 128+N if it was killed by signal N; 124 on timeout;\n"
           "127 if the program cannot be run; 2 for a bad command line.\n";
}

}  // namespace hmpirun
