// Model parameters (params.hpp): the built-in default, the profile file
// format hmpi-calibrate writes, this machine's topology key, and loading the
// profile once for the runtime. docs/model.md documents the format, the
// default location and the notice.
//
// A profile is text, one "key value" per line, '#' starts a comment line.
// Parsing is strict (an unknown or repeated key, a missing one, a value that
// is not a positive finite number rejects the file): a profile that is
// silently half-read would choose algorithms from made-up numbers.
#include <hwloc.h>
#include <sys/utsname.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <vector>

#include "base/config.hpp"
#include "base/log.hpp"
#include "collectives/model/params.hpp"
#include "collectives/model/profile.hpp"

namespace hmpi::coll {

namespace {

// 2: call_overhead and the copy costs c, C, c_mem, C_mem added (format 1
// files predate them and are refused with a request to calibrate again).
// 3: rewrite_line and source_line added; format 2 files are still read,
// with those terms left out (0), which is the model they were measured for.
// 4: busy_step added, optional (absent where the cache domain has fewer
// than three cores); format 3 files are still read, without its term.
// 5: push_line, step_overhead and poll_line added, optional (absent where
// not measured); format 3 and 4 files are still read, without their terms.
// 6: peer_args added, optional (absent where not measured); format 3 to 5
// files are still read, without its term.
// 7: core_cache_bytes added, optional (absent where no knee was found);
// format 3 to 6 files are still read, with hwloc's cache sizes.
// 8: the costs of a reduction into a third buffer, r, R, r_mem, R_mem, per
// link, optional (all four or none); format 2 to 7 files are still read,
// charging those steps the accumulating reduction's b, B, b_mem, B_mem.
// 9: rewrite_knee and rewrite_line_beyond added, optional (both or none);
// format 2 to 8 files are still read, charging rewrite_line throughout.
// 10: R_slices and R_slices_mem per link, optional (both or none, and only
// with r, R, r_mem, R_mem); format 2 to 9 files are still read, charging
// the slice folds R and R_mem (measured with shared lines: higher).
// 11: fold_rewrite_line added, optional (absent where not measured), and
// copy_rewrite_bytes with copy_rewrite_line, optional (both or neither);
// format 2 to 10 files are still read, charging a fold's or a large copy's
// stores into lines others read rewrite_line while the buffers fit the L2.
// 12: switch_handoff added, optional (absent where not measured); format 2
// to 11 files are still read, charging oversubscribed handoffs nothing more.
// 13: fold_rewrite_knee and fold_rewrite_line_beyond added, optional (both
// or neither), and rewrite_first, optional; format 2 to 12 files are still
// read, charging fold_rewrite_line at every size and a link's a for a first
// rewrite.
// 14: inline_read_first added, optional; format 2 to 13 files are still
// read, charging an inline read past the prefetched lines nothing more.
// 15: fold_stream_line added, optional; format 2 to 14 files are still
// read, charging tiled_push's streaming path its fold and its pushes.
// 16: push_line_beyond added, optional; format 2 to 15 files are still
// read, charging pushes past the L2 C, as pulls.
// 17: rewrite_all_line and claim_line added, optional; format 2 to 16 files
// are still read, charging every rank's copy-in at once rewrite_line and
// split Bcast's claims nothing.
// 18: b_l2, c_l2, r_l2 per link, optional (all three or none), and
// near_line with near_lines, optional (both or neither); format 2 to 17
// files are still read, charging b, c and r at every size in cache and no
// excess for a step's first lines.
// 19: R_slices_l2 per link, optional (only with R_slices), and
// slice_near_line with slice_near_lines, optional (both or neither); format
// 2 to 18 files are still read, charging the slice folds R_slices at every
// size in cache and no excess for a slice's first lines.
// 20: push_held_line added, optional; format 2 to 19 files are still read,
// charging tiled_push's pushes nothing while they stay in the L2.
// 21: nt_copy_from and nt_copy_ratio added, optional (both or neither);
// format 2 to 20 files are still read, storing non-temporally only past the
// cache.
// 22: b_l1, r_l1 per link, optional (both or neither), and R_slices_l1,
// optional (only with R_slices); format 2 to 21 files are still read,
// charging the L2s' costs from a step's first line.
constexpr int kProfileFormat = 22;
constexpr int kOldestReadableFormat = 2;

// Names of the levels in profile keys (level.<name>.<field>): lower case,
// stable, independent of level_name()'s display spelling.
constexpr struct {
    LevelKind kind;
    const char* key;
} kLevelKeys[] = {{LevelKind::core, "core"}, {LevelKind::l2, "l2"},         {LevelKind::l3, "l3"},
                  {LevelKind::numa, "numa"}, {LevelKind::socket, "socket"}, {LevelKind::node, "node"}};

const char* level_key(LevelKind k) {
    for (const auto& e : kLevelKeys)
        if (e.kind == k) return e.key;
    return "node";
}

bool level_from_key(std::string_view s, LevelKind* k) {
    for (const auto& e : kLevelKeys)
        if (s == e.key) {
            *k = e.kind;
            return true;
        }
    return false;
}

// The fields of a LinkCost, in file order: nine every link has, then the
// four of a reduction into a third buffer (format 8, all or none), then the
// two of its fold of own slices (format 10, both or none).
constexpr const char* kFields[] = {"a", "b", "B", "b_mem", "B_mem", "c", "C", "c_mem", "C_mem",
                                   "r", "R", "r_mem", "R_mem", "R_slices", "R_slices_mem"};
constexpr int kFieldCount = static_cast<int>(std::size(kFields));
constexpr int kRequiredFields = 9;
constexpr int kFirstSliceField = 13;
constexpr double LinkCost::*kFieldMembers[] = {&LinkCost::a,     &LinkCost::b,     &LinkCost::B,
                                               &LinkCost::b_mem, &LinkCost::B_mem, &LinkCost::c,
                                               &LinkCost::C,     &LinkCost::c_mem, &LinkCost::C_mem,
                                               &LinkCost::r,     &LinkCost::R,     &LinkCost::r_mem,
                                               &LinkCost::R_mem, &LinkCost::R_slices, &LinkCost::R_slices_mem};
static_assert(std::size(kFieldMembers) == std::size(kFields));
double* field(LinkCost& l, int i) { return &(l.*kFieldMembers[i]); }
const double& field(const LinkCost& l, int i) { return l.*kFieldMembers[i]; }

void put(std::string& out, const std::string& key, double v) {
    char buf[64];
    // %.6g keeps what the measurement resolves and reads back exactly enough.
    std::snprintf(buf, sizeof buf, " %.6g\n", v);
    out += key;
    out += buf;
}

// The in-L2 costs of a link (format 18, all three or none), after its
// other fields.
constexpr const char* kL2Fields[] = {"b_l2", "c_l2", "r_l2"};
constexpr double LinkCost::*kL2Members[] = {&LinkCost::b_l2, &LinkCost::c_l2, &LinkCost::r_l2};
bool has_l2_costs(const LinkCost& l) { return l.b_l2 > 0 && l.c_l2 > 0 && l.r_l2 > 0; }
// The slice folds' in-L2 cost (format 19), after the in-L2 costs.
constexpr const char* kSliceL2Field = "R_slices_l2";

// The in-L1 costs (format 22): b_l1 and r_l1 both or neither, and the
// slice folds' R_slices_l1, after the in-L2 costs.
constexpr const char* kL1Fields[] = {"b_l1", "r_l1"};
constexpr double LinkCost::*kL1Members[] = {&LinkCost::b_l1, &LinkCost::r_l1};
bool has_l1_costs(const LinkCost& l) { return l.b_l1 > 0 && l.r_l1 > 0; }
constexpr const char* kSliceL1Field = "R_slices_l1";

bool has_third_buffer_costs(const LinkCost& l) { return l.r > 0 && l.R > 0 && l.r_mem > 0 && l.R_mem > 0; }
bool has_slice_costs(const LinkCost& l) { return has_third_buffer_costs(l) && l.R_slices > 0 && l.R_slices_mem > 0; }

void put_link(std::string& out, const std::string& prefix, const LinkCost& l) {
    const int n = has_slice_costs(l) ? kFieldCount : has_third_buffer_costs(l) ? kFirstSliceField : kRequiredFields;
    for (int i = 0; i < n; ++i) put(out, prefix + "." + kFields[i], field(l, i));
    if (has_l2_costs(l))
        for (int i = 0; i < static_cast<int>(std::size(kL2Fields)); ++i)
            put(out, prefix + "." + kL2Fields[i], l.*kL2Members[i]);
    if (has_slice_costs(l) && l.R_slices_l2 > 0) put(out, prefix + "." + kSliceL2Field, l.R_slices_l2);
    if (has_l1_costs(l))
        for (int i = 0; i < static_cast<int>(std::size(kL1Fields)); ++i)
            put(out, prefix + "." + kL1Fields[i], l.*kL1Members[i]);
    if (has_slice_costs(l) && l.R_slices_l1 > 0) put(out, prefix + "." + kSliceL1Field, l.R_slices_l1);
}

std::string size_text(hwloc_uint64_t bytes) {
    char b[32];
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        std::snprintf(b, sizeof b, "%lluMiB", static_cast<unsigned long long>(bytes >> 20));
    else
        std::snprintf(b, sizeof b, "%lluKiB", static_cast<unsigned long long>(bytes >> 10));
    return b;
}

}  // namespace

// Where the default comes from (docs/model.md, "Built-in default"): the
// development machine's hmpi-calibrate measurements (Sapphire Rapids KVM
// guest, 2 cores, one L3 of 105 MiB, measured while other builds loaded it:
// a 297-442 ns, b 7-11, B 3.5-5.4, b_mem 14-42, B_mem 8-37 ns per line,
// copies 3.4-5.5 bytes per ns), the upper end in cache, the middle beyond
// it, the lower end of the bandwidths: an unknown machine is not predicted
// faster than it is. beta (not measurable there: one cache domain) is twice
// alpha in cache (Li-Hoefler Section 3.4: 28.5 vs 105 ns within and across
// sockets) and 1.5x beyond it (memory bandwidth is shared by both sides).
// call_overhead: MPI_Barrier on one rank measured 110-180 ns on the 2-core
// AMD EPYC guest of 2026-11-26 (hmpi-call-overhead), rounded up. The copy
// costs c, C, c_mem, C_mem are about half the reduction's b, B, b_mem, B_mem
// (not measured on that machine). rewrite_line and source_line: hmpi-calibrate
// on that guest (one reader) gave 6.9-34.6 and 2.50-2.62 ns per line: the
// upper end, rounded up;
// the 16-core Xeon's benchmark run fits 10 and 1.2 (docs/model.md).
// busy_step: not measurable on 2 cores; hmpi-calibrate on the 16-core Xeon
// gave 2.9 ns per rank, rounded up. switch_handoff: hmpi-calibrate on the
// 2-core AMD EPYC guest of 2026-12-02 gave 1931-1973 ns, rounded up (a
// scheduler's switch costs microseconds on any machine we know).
ModelParams default_model_params() {
    ModelParams p;
    p.alpha = {400, 8, 4, 30, 16, 4, 2, 16, 8};
    p.beta = {800, 16, 8, 45, 25, 8, 4, 24, 12};
    p.copy_bandwidth = 4;
    p.nt_copy_bandwidth = 3;
    p.call_overhead = 200;
    p.rewrite_line = 35;
    p.source_line = 2.6;
    p.busy_step = 3;
    p.switch_handoff = 2000;
    p.topology_key = machine_topology_key();
    p.source = "built-in default";
    return p;
}

std::string format_profile(const ModelParams& p) {
    std::string out;
    out += "format " + std::to_string(kProfileFormat) + "\n";
    out += "topology_key " + p.topology_key + "\n";
    put_link(out, "alpha", p.alpha);
    put_link(out, "beta", p.beta);
    for (const LevelCost& l : p.levels) put_link(out, std::string("level.") + level_key(l.kind), l.cost);
    put(out, "copy_bandwidth", p.copy_bandwidth);
    put(out, "nt_copy_bandwidth", p.nt_copy_bandwidth);
    put(out, "call_overhead", p.call_overhead);
    put(out, "rewrite_line", p.rewrite_line);
    put(out, "source_line", p.source_line);
    if (p.rewrite_knee > 0 && p.rewrite_line_beyond > 0) {
        put(out, "rewrite_knee", p.rewrite_knee);
        put(out, "rewrite_line_beyond", p.rewrite_line_beyond);
    }
    if (p.rewrite_first > 0) put(out, "rewrite_first", p.rewrite_first);
    if (p.inline_read_first > 0) put(out, "inline_read_first", p.inline_read_first);
    if (p.fold_stream_line > 0) put(out, "fold_stream_line", p.fold_stream_line);
    if (p.busy_step > 0) put(out, "busy_step", p.busy_step);
    if (p.step_overhead > 0) put(out, "step_overhead", p.step_overhead);
    if (p.poll_line > 0) put(out, "poll_line", p.poll_line);
    if (p.push_line > 0) put(out, "push_line", p.push_line);
    if (p.push_line_beyond > 0) put(out, "push_line_beyond", p.push_line_beyond);
    if (p.push_held_line > 0) put(out, "push_held_line", p.push_held_line);
    if (p.rewrite_all_line > 0) put(out, "rewrite_all_line", p.rewrite_all_line);
    if (p.claim_line > 0) put(out, "claim_line", p.claim_line);
    if (p.peer_args > 0) put(out, "peer_args", p.peer_args);
    if (p.switch_handoff > 0) put(out, "switch_handoff", p.switch_handoff);
    if (p.fold_rewrite_line > 0) put(out, "fold_rewrite_line", p.fold_rewrite_line);
    if (p.fold_rewrite_line > 0 && p.fold_rewrite_knee > 0 && p.fold_rewrite_line_beyond > 0) {
        put(out, "fold_rewrite_knee", p.fold_rewrite_knee);
        put(out, "fold_rewrite_line_beyond", p.fold_rewrite_line_beyond);
    }
    if (p.copy_rewrite_bytes > 0 && p.copy_rewrite_line > 0) {
        out += "copy_rewrite_bytes " + std::to_string(static_cast<std::size_t>(p.copy_rewrite_bytes)) + "\n";
        put(out, "copy_rewrite_line", p.copy_rewrite_line);
    }
    if (p.core_cache_bytes > 0) out += "core_cache_bytes " + std::to_string(p.core_cache_bytes) + "\n";
    if (p.nt_copy_from > 0 && p.nt_copy_ratio > 0) {
        out += "nt_copy_from " + std::to_string(p.nt_copy_from) + "\n";
        put(out, "nt_copy_ratio", p.nt_copy_ratio);
    }
    if (p.near_line > 0 && p.near_lines > 0) {
        put(out, "near_line", p.near_line);
        put(out, "near_lines", p.near_lines);
    }
    if (p.slice_near_line > 0 && p.slice_near_lines > 0) {
        put(out, "slice_near_line", p.slice_near_line);
        put(out, "slice_near_lines", p.slice_near_lines);
    }
    // The other states: each state's own lines, prefixed.
    for (std::size_t i = 0; i < p.other_states.size(); ++i) {
        const std::string prefix = "state" + std::to_string(i + 2) + ".";
        ModelParams state = p.other_states[i];
        state.other_states.clear();
        const std::string lines = format_profile(state);
        for (std::size_t pos = 0; pos < lines.size();) {
            const std::size_t end = lines.find('\n', pos);
            out += prefix + lines.substr(pos, end - pos) + "\n";
            pos = end == std::string::npos ? lines.size() : end + 1;
        }
    }
    return out;
}

namespace {
std::optional<ModelParams> parse_one_state(std::string_view text, std::string* error);

// "stateN." with N >= 2 at the start of a line (after blanks): N, else 0.
int state_of_line(std::string_view line) noexcept {
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.substr(0, 5) != "state") return 0;
    std::size_t i = 5;
    int n = 0;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9' && n < 1000) n = n * 10 + (line[i++] - '0');
    return i > 5 && i < line.size() && line[i] == '.' && n >= 2 ? n : 0;
}
}  // namespace

// The lines of each state go to a text of their own, their prefix removed;
// every text keeps the file's line numbers (blank lines where the other
// states' lines were), so that an error names the file's line.
std::optional<ModelParams> parse_profile(std::string_view text, std::string* error) {
    std::vector<std::string> texts(1);
    std::size_t lines_before = 0;
    for (std::size_t pos = 0; pos <= text.size(); ++lines_before) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        const int state = state_of_line(line);
        if (static_cast<std::size_t>(state) > texts.size() + 1) {
            if (error)
                *error = "state" + std::to_string(state) + " comes before state" + std::to_string(texts.size() + 1) +
                         " (states are numbered 2, 3, ... in order)";
            return std::nullopt;
        }
        if (static_cast<std::size_t>(state) == texts.size() + 1) texts.emplace_back(lines_before, '\n');
        // Line k of the file is line k of every text.
        for (std::size_t i = 0; i < texts.size(); ++i) {
            if (i == (state ? static_cast<std::size_t>(state - 1) : 0)) {
                const std::size_t skip = state ? line.find('.') + 1 : 0;
                texts[i].append(line.substr(skip));
            }
            texts[i] += '\n';
        }
    }
    std::optional<ModelParams> main = parse_one_state(texts.front(), error);
    if (!main) return main;
    for (std::size_t i = 1; i < texts.size(); ++i) {
        std::string why;
        std::optional<ModelParams> other = parse_one_state(texts[i], &why);
        if (!other) {
            if (error) *error = "state" + std::to_string(i + 1) + ": " + why;
            return std::nullopt;
        }
        if (other->topology_key != main->topology_key) {
            if (error)
                *error = "state" + std::to_string(i + 1) + " was measured on topology " + other->topology_key +
                         ", the profile's first state on " + main->topology_key;
            return std::nullopt;
        }
        main->other_states.push_back(std::move(*other));
    }
    return main;
}

namespace {
std::optional<ModelParams> parse_one_state(std::string_view text, std::string* error) {
    auto fail = [&](int line, const std::string& why) -> std::optional<ModelParams> {
        if (error) *error = line > 0 ? "line " + std::to_string(line) + ": " + why : why;
        return std::nullopt;
    };
    ModelParams p;
    std::map<std::string, int> seen;  // key -> line, to reject repeats
    // Levels in file order, with how many of their nine fields were given.
    std::vector<std::pair<LevelCost, int>> levels;
    int line_no = 0, format = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        // Trim; skip blank and comment lines.
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
            line.remove_suffix(1);
        if (line.empty() || line.front() == '#') continue;
        const std::size_t sp = line.find_first_of(" \t");
        if (sp == std::string_view::npos) return fail(line_no, "'" + std::string(line) + "' has no value");
        const std::string key(line.substr(0, sp));
        std::string_view value = line.substr(sp);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
        if (!seen.emplace(key, line_no).second)
            return fail(line_no, "key '" + key + "' repeated (first on line " + std::to_string(seen[key]) + ")");

        // Text-valued keys.
        if (key == "format") {
            for (int f = kOldestReadableFormat; f <= kProfileFormat; ++f)
                if (value == std::to_string(f)) format = f;
            if (format == 0)
                return fail(line_no, "format " + std::string(value) + " is not supported (this HMPI reads formats " +
                                         std::to_string(kOldestReadableFormat) + " to " +
                                         std::to_string(kProfileFormat) + "; run hmpi-calibrate again)");
            continue;
        }
        if (key == "topology_key") {
            p.topology_key = std::string(value);
            continue;
        }
        if (key == "measured" || key == "tool") continue;  // information for people

        // Numeric keys: a positive finite number, all of the value.
        const std::string v(value);
        char* stop = nullptr;
        errno = 0;
        const double x = std::strtod(v.c_str(), &stop);
        if (stop == v.c_str() || *stop != '\0' || errno == ERANGE)
            return fail(line_no, key + " = '" + v + "' is not a number");
        if (!std::isfinite(x) || x <= 0) return fail(line_no, key + " = " + v + " must be positive and finite");

        if (key == "copy_bandwidth") {
            p.copy_bandwidth = x;
            continue;
        }
        if (key == "nt_copy_bandwidth") {
            p.nt_copy_bandwidth = x;
            continue;
        }
        if (key == "call_overhead") {
            p.call_overhead = x;
            continue;
        }
        if (key == "rewrite_line" || key == "source_line") {
            if (format < 3) return fail(line_no, key + " needs format 3 (the format line comes first)");
            (key == "rewrite_line" ? p.rewrite_line : p.source_line) = x;
            continue;
        }
        if (key == "rewrite_knee" || key == "rewrite_line_beyond") {
            if (format < 9) return fail(line_no, key + " needs format 9 (the format line comes first)");
            (key == "rewrite_knee" ? p.rewrite_knee : p.rewrite_line_beyond) = x;
            continue;
        }
        if (key == "busy_step") {
            if (format < 4) return fail(line_no, key + " needs format 4 (the format line comes first)");
            p.busy_step = x;
            continue;
        }
        if (key == "push_line" || key == "step_overhead" || key == "poll_line") {
            if (format < 5) return fail(line_no, key + " needs format 5 (the format line comes first)");
            (key == "push_line" ? p.push_line : key == "step_overhead" ? p.step_overhead : p.poll_line) = x;
            continue;
        }
        if (key == "switch_handoff") {
            if (format < 12) return fail(line_no, key + " needs format 12 (the format line comes first)");
            p.switch_handoff = x;
            continue;
        }
        if (key == "peer_args") {
            if (format < 6) return fail(line_no, key + " needs format 6 (the format line comes first)");
            p.peer_args = x;
            continue;
        }
        if (key == "fold_rewrite_line" || key == "copy_rewrite_bytes" || key == "copy_rewrite_line") {
            if (format < 11) return fail(line_no, key + " needs format 11 (the format line comes first)");
            if (key == "copy_rewrite_bytes" && (x != std::floor(x) || x > 1e15))
                return fail(line_no, key + " must be a whole number of bytes");
            (key == "fold_rewrite_line" ? p.fold_rewrite_line
             : key == "copy_rewrite_bytes" ? p.copy_rewrite_bytes
                                           : p.copy_rewrite_line) = x;
            continue;
        }
        if (key == "fold_rewrite_knee" || key == "fold_rewrite_line_beyond" || key == "rewrite_first") {
            if (format < 13) return fail(line_no, key + " needs format 13 (the format line comes first)");
            (key == "fold_rewrite_knee"          ? p.fold_rewrite_knee
             : key == "fold_rewrite_line_beyond" ? p.fold_rewrite_line_beyond
                                                 : p.rewrite_first) = x;
            continue;
        }
        if (key == "rewrite_all_line" || key == "claim_line") {
            if (format < 17) return fail(line_no, key + " needs format 17 (the format line comes first)");
            (key == "rewrite_all_line" ? p.rewrite_all_line : p.claim_line) = x;
            continue;
        }
        if (key == "push_held_line") {
            if (format < 20) return fail(line_no, key + " needs format 20 (the format line comes first)");
            p.push_held_line = x;
            continue;
        }
        if (key == "push_line_beyond") {
            if (format < 16) return fail(line_no, key + " needs format 16 (the format line comes first)");
            p.push_line_beyond = x;
            continue;
        }
        if (key == "near_line" || key == "near_lines") {
            if (format < 18) return fail(line_no, key + " needs format 18 (the format line comes first)");
            (key == "near_line" ? p.near_line : p.near_lines) = x;
            continue;
        }
        if (key == "slice_near_line" || key == "slice_near_lines") {
            if (format < 19) return fail(line_no, key + " needs format 19 (the format line comes first)");
            (key == "slice_near_line" ? p.slice_near_line : p.slice_near_lines) = x;
            continue;
        }
        if (key == "fold_stream_line") {
            if (format < 15) return fail(line_no, key + " needs format 15 (the format line comes first)");
            p.fold_stream_line = x;
            continue;
        }
        if (key == "inline_read_first") {
            if (format < 14) return fail(line_no, key + " needs format 14 (the format line comes first)");
            p.inline_read_first = x;
            continue;
        }
        if (key == "core_cache_bytes") {
            if (format < 7) return fail(line_no, key + " needs format 7 (the format line comes first)");
            if (x < 1 || x != std::floor(x) || x > 1e15) return fail(line_no, key + " must be a whole number of bytes");
            p.core_cache_bytes = static_cast<std::size_t>(x);
            continue;
        }
        if (key == "nt_copy_from") {
            if (format < 21) return fail(line_no, key + " needs format 21 (the format line comes first)");
            if (x < 1 || x != std::floor(x) || x > 1e15) return fail(line_no, key + " must be a whole number of bytes");
            p.nt_copy_from = static_cast<std::size_t>(x);
            continue;
        }
        if (key == "nt_copy_ratio") {
            if (format < 21) return fail(line_no, key + " needs format 21 (the format line comes first)");
            p.nt_copy_ratio = x;
            continue;
        }
        // <link>.<field>: alpha.*, beta.*, level.<name>.*
        const std::size_t dot = key.rfind('.');
        if (dot == std::string::npos) return fail(line_no, "unknown key '" + key + "'");
        const std::string link = key.substr(0, dot), fname = key.substr(dot + 1);
        int fi = -1;
        for (int i = 0; i < kFieldCount; ++i)
            if (fname == kFields[i]) fi = i;
        int l2i = -1;
        for (int i = 0; i < static_cast<int>(std::size(kL2Fields)); ++i)
            if (fname == kL2Fields[i]) l2i = i;
        const bool slice_l2 = fname == kSliceL2Field;
        int l1i = -1;
        for (int i = 0; i < static_cast<int>(std::size(kL1Fields)); ++i)
            if (fname == kL1Fields[i]) l1i = i;
        const bool slice_l1 = fname == kSliceL1Field;
        const bool cache_tier = l2i >= 0 || slice_l2 || l1i >= 0 || slice_l1;  // written after the nine
        if (fi < 0 && !cache_tier) return fail(line_no, "unknown key '" + key + "'");
        if ((l1i >= 0 || slice_l1) && format < 22)
            return fail(line_no, key + " needs format 22 (the format line comes first)");
        if (l2i >= 0 && format < 18) return fail(line_no, key + " needs format 18 (the format line comes first)");
        if (slice_l2 && format < 19) return fail(line_no, key + " needs format 19 (the format line comes first)");
        if (fi >= kRequiredFields && format < 8)
            return fail(line_no, key + " needs format 8 (the format line comes first)");
        if (fi >= kFirstSliceField && format < 10)
            return fail(line_no, key + " needs format 10 (the format line comes first)");
        // The link the key names; a level's first field adds the level, and
        // its in-L2 fields (written last) count none of its nine.
        LinkCost* target = link == "alpha" ? &p.alpha : link == "beta" ? &p.beta : nullptr;
        if (!target && link.rfind("level.", 0) == 0) {
            LevelKind kind;
            if (!level_from_key(link.substr(6), &kind))
                return fail(line_no,
                            "unknown level '" + link.substr(6) + "' (levels: core, l2, l3, numa, socket, node)");
            auto it = levels.begin();
            while (it != levels.end() && it->first.kind != kind) ++it;
            if (it == levels.end() && cache_tier)
                return fail(line_no, key + " comes after " + link + "'s other fields");
            if (it == levels.end()) {
                levels.push_back({LevelCost{kind, {}}, 0});
                it = levels.end() - 1;
            }
            if (!cache_tier) ++it->second;
            target = &it->first.cost;
        }
        if (!target) return fail(line_no, "unknown key '" + key + "'");
        if (l2i >= 0) target->*kL2Members[l2i] = x;
        else if (slice_l2) target->R_slices_l2 = x;
        else if (l1i >= 0) target->*kL1Members[l1i] = x;
        else if (slice_l1) target->R_slices_l1 = x;
        else *field(*target, fi) = x;
    }
    // Everything required is there.
    if (!seen.count("format")) return fail(0, "the 'format' line is missing");
    if (!seen.count("topology_key") || p.topology_key.empty()) return fail(0, "the 'topology_key' line is missing");
    // A link's third-buffer costs come all four or not at all.
    auto count_given = [&](const std::string& link, int from, int to) {
        int n = 0;
        for (int i = from; i < to; ++i) n += seen.count(link + "." + kFields[i]) ? 1 : 0;
        return n;
    };
    auto third_buffer_given = [&](const std::string& link) {
        return count_given(link, kRequiredFields, kFirstSliceField);
    };
    auto slices_given = [&](const std::string& link) { return count_given(link, kFirstSliceField, kFieldCount); };
    // The slice folds' two come together, and only with the other four.
    auto check_slices = [&](const std::string& link) -> std::string {
        const int n = slices_given(link);
        if (n != 0 && n != kFieldCount - kFirstSliceField)
            return link + " needs both of R_slices, R_slices_mem or neither";
        if (n != 0 && third_buffer_given(link) == 0) return link + "'s R_slices, R_slices_mem need r, R, r_mem, R_mem";
        return {};
    };
    for (const char* link : {"alpha", "beta"}) {
        const int n = third_buffer_given(link);
        if (n != 0 && n != kFirstSliceField - kRequiredFields)
            return fail(0, std::string(link) + " needs all of r, R, r_mem, R_mem or none of them");
        if (std::string why = check_slices(link); !why.empty()) return fail(0, why);
    }
    for (const char* link : {"alpha", "beta"})
        for (int i = 0; i < kRequiredFields; ++i)
            if (!seen.count(std::string(link) + "." + kFields[i]))
                return fail(0, std::string(link) + "." + kFields[i] + " is missing" +
                                   (i >= 5 ? " (profiles written before the copy costs c, C, c_mem, C_mem lack them: "
                                             "run hmpi-calibrate again)"
                                           : ""));
    for (const char* k : {"copy_bandwidth", "nt_copy_bandwidth", "call_overhead"})
        if (!seen.count(k)) return fail(0, std::string(k) + " is missing");
    if (format >= 3)
        for (const char* k : {"rewrite_line", "source_line"})
            if (!seen.count(k)) return fail(0, std::string(k) + " is missing (format 3)");
    if (seen.count("rewrite_knee") != seen.count("rewrite_line_beyond"))
        return fail(0, "rewrite_knee and rewrite_line_beyond come together or not at all");
    if (seen.count("fold_rewrite_knee") != seen.count("fold_rewrite_line_beyond"))
        return fail(0, "fold_rewrite_knee and fold_rewrite_line_beyond come together or not at all");
    if (seen.count("fold_rewrite_knee") && !seen.count("fold_rewrite_line"))
        return fail(0, "fold_rewrite_knee needs fold_rewrite_line (the cost up to the knee)");
    if (seen.count("near_line") != seen.count("near_lines"))
        return fail(0, "near_line and near_lines come together or not at all");
    if (seen.count("slice_near_line") != seen.count("slice_near_lines"))
        return fail(0, "slice_near_line and slice_near_lines come together or not at all");
    if (seen.count("nt_copy_from") != seen.count("nt_copy_ratio"))
        return fail(0, "nt_copy_from and nt_copy_ratio come together or not at all");
    auto check_l2 = [&](const std::string& link) -> std::string {
        int n = 0;
        for (const char* f : kL2Fields) n += seen.count(link + "." + f) ? 1 : 0;
        if (n != 0 && n != static_cast<int>(std::size(kL2Fields)))
            return link + " needs all of b_l2, c_l2, r_l2 or none of them";
        if (seen.count(link + "." + kSliceL2Field) && slices_given(link) == 0)
            return link + "'s R_slices_l2 needs R_slices, R_slices_mem";
        int n1 = 0;
        for (const char* f : kL1Fields) n1 += seen.count(link + "." + f) ? 1 : 0;
        if (n1 != 0 && n1 != static_cast<int>(std::size(kL1Fields)))
            return link + " needs both of b_l1, r_l1 or neither";
        if (seen.count(link + "." + kSliceL1Field) && slices_given(link) == 0)
            return link + "'s R_slices_l1 needs R_slices, R_slices_mem";
        return {};
    };
    for (const char* link : {"alpha", "beta"})
        if (std::string why = check_l2(link); !why.empty()) return fail(0, why);
    if (seen.count("copy_rewrite_bytes") != seen.count("copy_rewrite_line"))
        return fail(0, "copy_rewrite_bytes and copy_rewrite_line come together or not at all");
    for (const auto& [lc, given] : levels) {
        const std::string name = std::string("level.") + level_key(lc.kind);
        const int extra = third_buffer_given(name), slices = slices_given(name);
        if (given - extra - slices != kRequiredFields)
            return fail(0, name + " needs all of a, b, B, b_mem, B_mem, c, C, c_mem, C_mem");
        if (extra != 0 && extra != kFirstSliceField - kRequiredFields)
            return fail(0, name + " needs all of r, R, r_mem, R_mem or none of them");
        if (std::string why = check_slices(name); !why.empty()) return fail(0, why);
        if (std::string why = check_l2(name); !why.empty()) return fail(0, why);
        p.levels.push_back(lc);
    }
    return p;
}
}  // namespace

std::string machine_topology_key() {
    static const std::string key = [] {
        hwloc_topology_t t;
        if (hwloc_topology_init(&t) != 0) return std::string("unknown");
        if (hwloc_topology_load(t) != 0) {
            hwloc_topology_destroy(t);
            return std::string("unknown");
        }
        struct utsname u {};
        std::string k = uname(&u) == 0 ? u.machine : "unknown";
        const int pkgs = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
        const int numas = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
        const int cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
        const int pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
        k += ":" + std::to_string(pkgs > 0 ? pkgs : 1) + "pkg";
        k += ":" + std::to_string(numas > 0 ? numas : 1) + "numa";
        k += ":" + std::to_string(cores > 0 ? cores : pus) + "core";
        k += ":" + std::to_string(cores > 0 && pus > 0 ? pus / cores : 1) + "pu/core";
        // Cache sizes of the first object of each level: enough to tell
        // machines apart (the counts above give the rest of the shape).
        for (auto [type, name] : {std::pair{HWLOC_OBJ_L2CACHE, "L2"}, std::pair{HWLOC_OBJ_L3CACHE, "L3"}}) {
            const int n = hwloc_get_nbobjs_by_type(t, type);
            hwloc_obj_t o = n > 0 ? hwloc_get_obj_by_type(t, type, 0) : nullptr;
            if (o && o->attr) k += std::string(":") + name + "=" + size_text(o->attr->cache.size);
            if (n > 1 && type == HWLOC_OBJ_L3CACHE) k += "x" + std::to_string(n);
        }
        hwloc_topology_destroy(t);
        return k;
    }();
    return key;
}

std::string profile_file_name(const std::string& key) {
    std::string s = "profile-";
    for (char c : key) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-') ? c : '_';
    return s + ".txt";
}

std::string default_profile_dir() {
    // XDG_CACHE_HOME and HOME are the user's environment, not HMPI settings,
    // so they are read here rather than in the configuration table.
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x == '/') return std::string(x) + "/hmpi";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/hmpi";
    return "/tmp/hmpi";
}

std::string default_profile_path() { return default_profile_dir() + "/" + profile_file_name(machine_topology_key()); }

std::optional<ModelParams> read_profile(const std::string& path, std::string* error, int* open_errno) {
    std::ifstream in(path);
    if (!in) {
        const int e = errno ? errno : ENOENT;
        if (open_errno) *open_errno = e;
        *error = std::string("cannot be read: ") + std::strerror(e);
        return std::nullopt;
    }
    if (open_errno) *open_errno = 0;
    std::stringstream text;
    text << in.rdbuf();
    std::string why;
    std::optional<ModelParams> p = parse_profile(text.str(), &why);
    if (!p) *error = "is not a valid profile: " + why;
    return p;
}

namespace {

std::mutex params_lock;
// Read on the first call of a size range (its decision and plans) and by
// copies choosing their stores: an acquire load once loaded.
std::atomic<const ModelParams*> current{nullptr};

// The runtime's parameters, or the default with a notice that says why.
ModelParams load_model_params() {
    const std::string& named = config().profile_path;
    const bool explicit_path = !named.empty() && named != "auto";
    const std::string path = explicit_path ? named : default_profile_path();
    const std::string key = machine_topology_key();
    auto fall_back = [&](const std::string& why) {
        report_event("notice: no model profile for this machine (%s); using the built-in conservative default; "
                     "run hmpi-calibrate",
                     why.c_str());
        return default_model_params();
    };
    std::string error;
    int open_errno = 0;
    std::optional<ModelParams> p = read_profile(path, &error, &open_errno);
    if (!p && open_errno == 0) return fall_back(path + " " + error);
    if (!p && explicit_path) return fall_back("HMPI_PROFILE=" + path + " " + error);
    if (!p) return fall_back(path + " does not exist");
    if (p->topology_key != key)
        return fall_back(path + " was measured on topology " + p->topology_key + ", this machine is " + key);
    p->source = path;
    for (std::size_t i = 0; i < p->other_states.size(); ++i)
        p->other_states[i].source = path + " (state" + std::to_string(i + 2) + ")";
    // Format 3 requires both (positive): zeros mean a format 2 file.
    if (p->rewrite_line == 0 && p->source_line == 0)
        report_event("notice: model profile %s is format 2: it has no rewrite_line and source_line, so the model "
                     "leaves those terms out; run hmpi-calibrate again",
                     path.c_str());
    return *p;
}

}  // namespace

const ModelParams& model_params() {
    if (const ModelParams* p = current.load(std::memory_order_acquire)) [[likely]]
        return *p;
    std::lock_guard g(params_lock);
    if (!current.load(std::memory_order_relaxed)) current.store(new ModelParams(load_model_params()), std::memory_order_release);
    return *current.load(std::memory_order_relaxed);
}

void set_model_params(ModelParams p) {
    // The previous parameters may still be referenced by a caller of
    // model_params(): they are kept (a few hundred bytes, replaced rarely),
    // reachable from here so that leak checkers do not report them.
    static std::vector<std::unique_ptr<const ModelParams>> retired;
    std::lock_guard g(params_lock);
    if (const ModelParams* old = current.load(std::memory_order_relaxed)) retired.emplace_back(old);
    current.store(new ModelParams(std::move(p)), std::memory_order_release);
}

}  // namespace hmpi::coll
