// Model profiles (collectives/model/profile.cpp, docs/model.md): what
// format_profile writes reads back the same, and parse_profile rejects
// malformed files with a message that names the problem.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "collectives/model/params.hpp"
#include "collectives/model/profile.hpp"

using namespace hmpi::coll;

namespace {

ModelParams sample() {
    ModelParams p;
    // a, b, B, b_mem, B_mem, c, C, c_mem, C_mem, r, R, r_mem, R_mem,
    // R_slices, R_slices_mem: all different, so that a field read into
    // another's place shows.
    p.alpha = {212.5, 1.25, 0.75, 3.5, 2.25, 0.875, 0.625, 2.75, 1.75, 2.125, 1.0625, 5.25, 3.125, 0.9375, 2.875};
    p.beta = {480, 2.5, 1.5, 5, 4, 1.875, 1.125, 4.5, 3.25, 3.75, 2.0625, 7.5, 5.5, 1.6875, 4.25};
    p.levels = {{LevelKind::l3,
                 {212.5, 1.25, 0.75, 3.5, 2.25, 0.875, 0.625, 2.75, 1.75, 2.125, 1.0625, 5.25, 3.125, 0.9375, 2.875}},
                {LevelKind::node, {480, 2.5, 1.5, 5, 4, 1.875, 1.125, 4.5, 3.25, 3.75, 2.0625, 7.5, 5.5, 1.6875, 4.25}}};
    // b_l2, c_l2, r_l2 (format 18): different again.
    for (LinkCost* l : {&p.alpha, &p.levels[0].cost}) {
        l->b_l2 = 0.8125;
        l->c_l2 = 0.5625;
        l->r_l2 = 1.4375;
    }
    for (LinkCost* l : {&p.beta, &p.levels[1].cost}) {
        l->b_l2 = 1.3125;
        l->c_l2 = 0.6875;
        l->r_l2 = 2.3125;
    }
    p.near_line = 5.125;
    p.near_lines = 584;
    // R_slices_l2, slice_near_line, slice_near_lines (format 19).
    p.alpha.R_slices_l2 = p.levels[0].cost.R_slices_l2 = 0.4375;
    p.beta.R_slices_l2 = 1.0625;  // level.node without one
    p.slice_near_line = 3.8125;
    p.slice_near_lines = 155;
    // b_l1, r_l1, R_slices_l1 (format 22): alpha and level.l3 all three,
    // beta b_l1 and r_l1 only, level.node none.
    for (LinkCost* l : {&p.alpha, &p.levels[0].cost}) {
        l->b_l1 = 0.40625;
        l->r_l1 = 0.65625;
        l->R_slices_l1 = 0.21875;
    }
    p.beta.b_l1 = 0.90625;
    p.beta.r_l1 = 1.15625;
    p.copy_bandwidth = 11.75;
    p.nt_copy_bandwidth = 14.5;
    p.call_overhead = 135.5;
    p.rewrite_line = 9.25;
    p.rewrite_knee = 48;
    p.rewrite_line_beyond = 21.5;
    p.source_line = 1.375;
    p.busy_step = 47.5;
    p.push_line = 0.3125;
    p.push_line_beyond = 0.6875;
    p.push_held_line = 1.4375;  // format 20
    p.rewrite_all_line = 6.875;
    p.claim_line = 72.5;
    p.step_overhead = 161.25;
    p.poll_line = 41.5;
    p.peer_args = 93.75;
    p.switch_handoff = 1937.5;
    p.fold_rewrite_line = 7.125;
    p.fold_rewrite_knee = 5461;
    p.rewrite_first = 212.25;
    p.inline_read_first = 187.5;
    p.fold_stream_line = 2.625;
    p.fold_rewrite_line_beyond = 3.25;
    p.copy_rewrite_bytes = 1048576;
    p.copy_rewrite_line = 8.375;
    p.core_cache_bytes = 20709376;
    p.nt_copy_from = 4194304;  // format 21
    p.nt_copy_ratio = 0.8125;
    p.topology_key = "x86_64:2pkg:2numa:16core:1pu/core:L2=2MiB:L3=30MiBx2";
    return p;
}

void same_link(const LinkCost& x, const LinkCost& y) {
    CHECK(x.a == doctest::Approx(y.a));
    CHECK(x.b == doctest::Approx(y.b));
    CHECK(x.B == doctest::Approx(y.B));
    CHECK(x.b_mem == doctest::Approx(y.b_mem));
    CHECK(x.B_mem == doctest::Approx(y.B_mem));
    CHECK(x.c == doctest::Approx(y.c));
    CHECK(x.C == doctest::Approx(y.C));
    CHECK(x.c_mem == doctest::Approx(y.c_mem));
    CHECK(x.C_mem == doctest::Approx(y.C_mem));
    CHECK(x.r == doctest::Approx(y.r));
    CHECK(x.R == doctest::Approx(y.R));
    CHECK(x.r_mem == doctest::Approx(y.r_mem));
    CHECK(x.R_mem == doctest::Approx(y.R_mem));
    CHECK(x.R_slices == doctest::Approx(y.R_slices));
    CHECK(x.R_slices_mem == doctest::Approx(y.R_slices_mem));
    CHECK(x.b_l2 == doctest::Approx(y.b_l2));
    CHECK(x.c_l2 == doctest::Approx(y.c_l2));
    CHECK(x.r_l2 == doctest::Approx(y.r_l2));
    CHECK(x.R_slices_l2 == doctest::Approx(y.R_slices_l2));
    CHECK(x.b_l1 == doctest::Approx(y.b_l1));
    CHECK(x.r_l1 == doctest::Approx(y.r_l1));
    CHECK(x.R_slices_l1 == doctest::Approx(y.R_slices_l1));
}

// The sample's text with `from` replaced by `to` (which must occur).
std::string edited(const std::string& from, const std::string& to) {
    std::string t = format_profile(sample());
    const std::size_t at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
}

// `t` without the rewrite knee's lines (format 9), where it has them.
std::string without_knee(std::string t) {
    for (const char* k : {"\nrewrite_knee ", "\nrewrite_line_beyond "}) {
        const std::size_t at = t.find(k);
        if (at != std::string::npos) t.erase(at + 1, t.find('\n', at + 1) - at);
    }
    return t;
}

// The number on `t`'s format line.
int format_of(const std::string& t) {
    if (t.rfind("format ", 0) == 0) return std::atoi(t.c_str() + 7);
    const std::size_t at = t.find("\nformat ");
    REQUIRE(at != std::string::npos);
    return std::atoi(t.c_str() + at + 8);
}

// The in-L2 fields of every link of the sample (format 18).
const std::initializer_list<const char*> kL2Keys = {
    "alpha.b_l2 ",      "alpha.c_l2 ",      "alpha.r_l2 ",        "beta.b_l2 ",         "beta.c_l2 ",
    "beta.r_l2 ",       "level.l3.b_l2 ",   "level.l3.c_l2 ",     "level.l3.r_l2 ",     "level.node.b_l2 ",
    "level.node.c_l2 ", "level.node.r_l2 "};

// `t` (format 22) as format 21: without the in-L1 costs.
std::string as_format21(std::string t) {
    for (const char* link : {"alpha", "beta", "level.l3", "level.node"})
        for (const char* f : {".b_l1 ", ".r_l1 ", ".R_slices_l1 "}) {
            const std::size_t at = t.find(std::string("\n") + link + f);
            if (at != std::string::npos) t.erase(at + 1, t.find('\n', at + 1) - at);
        }
    const std::size_t f = t.find("format 22");
    REQUIRE(f != std::string::npos);
    return t.replace(f, 9, "format 21");
}

// `t` (format 21 or later) as format 20: without nt_copy_from and nt_copy_ratio.
std::string as_format20(std::string t) {
    if (format_of(t) > 21) t = as_format21(t);
    for (const char* k : {"\nnt_copy_from ", "\nnt_copy_ratio "}) {
        const std::size_t at = t.find(k);
        if (at != std::string::npos) t.erase(at + 1, t.find('\n', at + 1) - at);
    }
    const std::size_t f = t.find("format 21");
    REQUIRE(f != std::string::npos);
    return t.replace(f, 9, "format 20");
}

// `t` (format 20 or later) as format 19: without push_held_line.
std::string as_format19(std::string t) {
    if (format_of(t) > 20) t = as_format20(t);
    const std::size_t at = t.find("\npush_held_line ");
    if (at != std::string::npos) t.erase(at + 1, t.find('\n', at + 1) - at);
    const std::size_t f = t.find("format 20");
    REQUIRE(f != std::string::npos);
    return t.replace(f, 9, "format 19");
}

// `t` (format 19 or later) as format 18: without the slice folds' in-L2
// cost and excess.
std::string as_format18(std::string t) {
    if (format_of(t) > 19) t = as_format19(t);
    for (const char* k : {"alpha.R_slices_l2 ", "beta.R_slices_l2 ", "level.l3.R_slices_l2 ", "level.node.R_slices_l2 ",
                          "slice_near_line ", "slice_near_lines "}) {
        const std::size_t at = t.find(std::string("\n") + k);
        if (at != std::string::npos) t.erase(at + 1, t.find('\n', at + 1) - at);
    }
    const std::size_t f = t.find("format 19");
    REQUIRE(f != std::string::npos);
    return t.replace(f, 9, "format 18");
}

// `t` (format 18 or later) as format 17: without its in-L2 costs and near excess.
std::string as_format17(std::string t) {
    if (format_of(t) > 18) t = as_format18(t);
    std::initializer_list<const char*> near = {"near_line ", "near_lines "};
    for (auto keys : {kL2Keys, near})
        for (const char* k : keys) {
            const std::size_t at = t.find(std::string("\n") + k);
            if (at != std::string::npos) t.erase(at + 1, t.find('\n', at + 1) - at);
        }
    const std::size_t f = t.find("format 18");
    REQUIRE(f != std::string::npos);
    return t.replace(f, 9, "format 17");
}

// `t` (format 17 or later) as format 16: without its rewrite_all_line and claim_line lines.
std::string as_format16(std::string t) {
    if (format_of(t) > 17) t = as_format17(t);
    for (const char* key : {"\nrewrite_all_line ", "\nclaim_line "}) {
        const std::size_t at = t.find(key);
        if (at != std::string::npos) t.erase(at + 1, t.find('\n', at + 1) - at);
    }
    const std::size_t f = t.find("format 17");
    REQUIRE(f != std::string::npos);
    return t.replace(f, 9, "format 16");
}

// `t` (format 16 or later) as format 15: without its push_line_beyond line.
std::string as_format15(std::string t) {
    if (format_of(t) > 16) t = as_format16(t);
    const std::size_t at = t.find("\npush_line_beyond ");
    if (at != std::string::npos) t.erase(at + 1, t.find('\n', at + 1) - at);
    const std::size_t f = t.find("format 16");
    REQUIRE(f != std::string::npos);
    return t.replace(f, 9, "format 15");
}

// `t` (format 15 or later) as format 14: without its fold_stream_line line.
std::string as_format14(std::string t) {
    if (format_of(t) > 15) t = as_format15(t);
    const std::size_t at = t.find("\nfold_stream_line ");
    if (at != std::string::npos) t.erase(at + 1, t.find('\n', at + 1) - at);
    const std::size_t f = t.find("format 15");
    REQUIRE(f != std::string::npos);
    return t.replace(f, 9, "format 14");
}

// `t` (format 14 or 15) as format 13: without its inline_read_first line.
std::string as_format13(std::string t) {
    if (format_of(t) > 14) t = as_format14(t);
    const std::size_t at = t.find("\ninline_read_first ");
    if (at != std::string::npos) t.erase(at + 1, t.find('\n', at + 1) - at);
    const std::size_t f = t.find("format 14");
    REQUIRE(f != std::string::npos);
    return t.replace(f, 9, "format 13");
}

// `t` (format 13 or 14) as format 12: without its fold rewrite knee's lines.
std::string as_format12(std::string t) {
    if (format_of(t) > 13) t = as_format13(t);
    for (const char* k : {"\nfold_rewrite_knee ", "\nfold_rewrite_line_beyond ", "\nrewrite_first "}) {
        const std::size_t at = t.find(k);
        if (at != std::string::npos) t.erase(at + 1, t.find('\n', at + 1) - at);
    }
    const std::size_t f = t.find("format 13");
    REQUIRE(f != std::string::npos);
    return t.replace(f, 9, "format 12");
}

// `t` (format 12 or 13) as format 11: without its switch_handoff line.
std::string as_format11(std::string t) {
    if (format_of(t) > 12) t = as_format12(t);
    const std::size_t at = t.find("\nswitch_handoff ");
    if (at != std::string::npos) t.erase(at + 1, t.find('\n', at + 1) - at);
    const std::size_t f = t.find("format 12");
    REQUIRE(f != std::string::npos);
    return t.replace(f, 9, "format 11");
}

// `t` (format 11 or 12) as format 10: without its fold_rewrite_line and
// copy_rewrite lines.
std::string as_format10(std::string t) {
    if (format_of(t) > 11) t = as_format11(t);
    for (const char* k : {"\nfold_rewrite_line ", "\ncopy_rewrite_bytes ", "\ncopy_rewrite_line "}) {
        const std::size_t at = t.find(k);
        if (at != std::string::npos) t.erase(at + 1, t.find('\n', at + 1) - at);
    }
    const std::size_t f = t.find("format 11");
    REQUIRE(f != std::string::npos);
    return t.replace(f, 9, "format 10");
}

// The slice-fold fields of every link of the sample (format 10).
const std::initializer_list<const char*> kSliceKeys = {
    "alpha.R_slices ",    "alpha.R_slices_mem ",    "beta.R_slices ",      "beta.R_slices_mem ",
    "level.l3.R_slices ", "level.l3.R_slices_mem ", "level.node.R_slices ", "level.node.R_slices_mem "};

// `t` without the slice-fold lines (format 10) and with `format` in place
// of its format line.
std::string without_slices(std::string t, const char* format) {
    if (format_of(t) > 10) t = as_format10(t);
    for (const char* k : kSliceKeys) {
        const std::size_t at = t.find(std::string("\n") + k);
        REQUIRE(at != std::string::npos);
        t.erase(at + 1, t.find('\n', at + 1) - at);
    }
    const std::size_t f = t.find("format 10");
    REQUIRE(f != std::string::npos);
    return t.replace(f, 9, format);
}

// The third-buffer fields of every link of the sample (format 8).
const std::initializer_list<const char*> kThirdBufferKeys = {
    "alpha.r ",       "alpha.R ",       "alpha.r_mem ",       "alpha.R_mem ",      "beta.r ",
    "beta.R ",        "beta.r_mem ",    "beta.R_mem ",        "level.l3.r ",       "level.l3.R ",
    "level.l3.r_mem ", "level.l3.R_mem ", "level.node.r ",     "level.node.R ",     "level.node.r_mem ",
    "level.node.R_mem "};

// The sample's text without its third-buffer fields and with `format` in
// place of its format line.
std::string without_third_buffer(const std::string& text, const char* format) {
    std::string t = without_knee(without_slices(text, format));
    for (const char* k : kThirdBufferKeys) {
        const std::size_t at = t.find(std::string("\n") + k);
        REQUIRE(at != std::string::npos);
        t.erase(at + 1, t.find('\n', at + 1) - at);
    }
    return t;
}

// The sample's text without the lines of `keys` and with `format` in place
// of its format line.
std::string without(std::initializer_list<const char*> keys, const char* format) {
    std::string t = format_profile(sample());
    for (const char* k : keys) {
        const std::size_t at = t.find(k);
        REQUIRE(at != std::string::npos);
        t.erase(at, t.find('\n', at) + 1 - at);
    }
    // Format 9 has no slice-fold fields, format 8 no rewrite knee either;
    // formats before it no third-buffer fields either.
    const std::string f = format;
    if (f == "format 22") return t;
    if (f == "format 21") return as_format21(t);
    if (f == "format 20") return as_format20(t);
    if (f == "format 19") return as_format19(t);
    if (f == "format 18") return as_format18(t);
    if (f == "format 17") return as_format17(t);
    if (f == "format 16") return as_format16(t);
    if (f == "format 15") return as_format15(t);
    if (f == "format 14") return as_format14(t);
    if (f == "format 13") return as_format13(t);
    if (f == "format 12") return as_format12(t);
    if (f == "format 11") return as_format11(t);
    if (f == "format 10") return as_format10(t);
    if (f == "format 9") return without_slices(t, format);
    if (f != "format 8") return without_third_buffer(t, format);
    return without_knee(without_slices(t, format));
}

// `text` parsed; the test stops if it is rejected.
ModelParams parsed(const std::string& text) {
    std::string error;
    auto q = parse_profile(text, &error);
    REQUIRE_MESSAGE(q.has_value(), error);
    return *q;
}

std::string rejection(const std::string& text) {
    std::string error;
    auto p = parse_profile(text, &error);
    CHECK_FALSE(p.has_value());
    CHECK_FALSE(error.empty());
    return error;
}

}  // namespace

TEST_CASE("a formatted profile parses back to the same parameters") {
    const ModelParams p = sample();
    const std::string text = format_profile(p);
    std::string error;
    auto q = parse_profile(text, &error);
    REQUIRE_MESSAGE(q.has_value(), error);
    CHECK(q->topology_key == p.topology_key);
    same_link(q->alpha, p.alpha);
    same_link(q->beta, p.beta);
    REQUIRE(q->levels.size() == 2);
    CHECK(q->levels[0].kind == LevelKind::l3);
    CHECK(q->levels[1].kind == LevelKind::node);
    same_link(q->levels[0].cost, p.levels[0].cost);
    same_link(q->levels[1].cost, p.levels[1].cost);
    CHECK(q->copy_bandwidth == doctest::Approx(p.copy_bandwidth));
    CHECK(q->nt_copy_bandwidth == doctest::Approx(p.nt_copy_bandwidth));
    CHECK(q->call_overhead == doctest::Approx(p.call_overhead));
    CHECK(q->rewrite_line == doctest::Approx(p.rewrite_line));
    CHECK(q->rewrite_knee == doctest::Approx(p.rewrite_knee));
    CHECK(q->rewrite_line_beyond == doctest::Approx(p.rewrite_line_beyond));
    CHECK(q->source_line == doctest::Approx(p.source_line));
    CHECK(q->busy_step == doctest::Approx(p.busy_step));
    CHECK(q->push_line == doctest::Approx(p.push_line));
    CHECK(q->step_overhead == doctest::Approx(p.step_overhead));
    CHECK(q->poll_line == doctest::Approx(p.poll_line));
    CHECK(q->peer_args == doctest::Approx(p.peer_args));
    CHECK(q->fold_rewrite_line == doctest::Approx(p.fold_rewrite_line));
    CHECK(q->fold_rewrite_knee == doctest::Approx(p.fold_rewrite_knee));
    CHECK(q->fold_rewrite_line_beyond == doctest::Approx(p.fold_rewrite_line_beyond));
    CHECK(q->rewrite_first == doctest::Approx(p.rewrite_first));
    CHECK(q->copy_rewrite_bytes == p.copy_rewrite_bytes);
    CHECK(q->copy_rewrite_line == doctest::Approx(p.copy_rewrite_line));
    CHECK(q->core_cache_bytes == p.core_cache_bytes);
    CHECK(q->nt_copy_from == p.nt_copy_from);
    CHECK(q->nt_copy_ratio == doctest::Approx(p.nt_copy_ratio));
    // And formatting again gives the same text.
    CHECK(format_profile(*q) == text);
}

TEST_CASE("every link has fifteen fields, in the documented order") {
    const std::string text = format_profile(sample());
    for (const std::string link : {"alpha", "beta", "level.l3", "level.node"}) {
        std::size_t at = 0;
        for (const char* f : {"a", "b", "B", "b_mem", "B_mem", "c", "C", "c_mem", "C_mem", "r", "R", "r_mem", "R_mem",
                              "R_slices", "R_slices_mem"}) {
            const std::size_t next = text.find("\n" + link + "." + f + " ", at);
            const std::string what = link + "." + f + " missing or out of order";
            CHECK_MESSAGE(next != std::string::npos, what);
            if (next != std::string::npos) at = next;
        }
    }
    CHECK(text.find("\nalpha.C_mem 1.75\n") != std::string::npos);
    CHECK(text.find("\nbeta.c 1.875\n") != std::string::npos);
}

TEST_CASE("profiles may carry comments, blank lines, information keys and CRLF") {
    std::string text = "# written by hand\n\n" + format_profile(sample()) + "tool hmpi-calibrate 1\nmeasured 2024-01-01T00:00:00Z\n";
    std::string crlf;
    for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    for (const std::string& t : {text, crlf}) {
        std::string error;
        auto q = parse_profile(t, &error);
        REQUIRE_MESSAGE(q.has_value(), error);
        CHECK(q->alpha.a == doctest::Approx(212.5));
    }
}

TEST_CASE("a format 2 profile (before rewrite_line and source_line) reads with those terms left out") {
    const ModelParams q = parsed(without(
        {"rewrite_line", "source_line", "busy_step", "step_overhead", "poll_line", "push_line", "peer_args",
         "fold_rewrite_line", "core_cache_bytes"},
        "format 2"));
    CHECK(q.rewrite_line == 0);
    CHECK(q.source_line == 0);
    CHECK(q.call_overhead == doctest::Approx(135.5));
}

TEST_CASE("a format 3 profile (before busy_step), or one measured with under three cores, has no busy_step term") {
    for (const char* f :
         {"format 3", "format 4", "format 5", "format 6", "format 7", "format 8", "format 9", "format 10", "format 11", "format 12"}) {
        INFO(f);
        const ModelParams q =
            parsed(without({"busy_step", "step_overhead", "poll_line", "push_line", "peer_args", "fold_rewrite_line",
                            "core_cache_bytes"},
                           f));
        CHECK(q.busy_step == 0);
        CHECK(q.push_line == 0);
        CHECK(q.step_overhead == 0);
        CHECK(q.poll_line == 0);
        CHECK(q.peer_args == 0);
        CHECK(q.source_line == doctest::Approx(1.375));
    }
    // And a profile without the measurement writes no busy_step line.
    ModelParams p = sample();
    p.busy_step = 0;
    CHECK(format_profile(p).find("busy_step") == std::string::npos);
}

TEST_CASE("a format 4 profile (before push_line and step_overhead), or one without them, has no such terms") {
    const ModelParams q =
        parsed(without({"step_overhead", "poll_line", "push_line", "peer_args", "fold_rewrite_line", "core_cache_bytes"},
                       "format 4"));
    CHECK(q.push_line == 0);
    CHECK(q.step_overhead == 0);
    CHECK(q.poll_line == 0);
    CHECK(q.busy_step == doctest::Approx(47.5));
    ModelParams p = sample();
    p.push_line = 0;
    p.step_overhead = 0;
    p.poll_line = 0;
    CHECK(format_profile(p).find("push_line ") == std::string::npos);
    CHECK(format_profile(p).find("step_overhead") == std::string::npos);
    CHECK(format_profile(p).find("poll_line") == std::string::npos);
}

TEST_CASE("a format 5 profile (before peer_args), or one without it, has no peer_args term") {
    for (const char* f : {"format 5", "format 6", "format 7", "format 8", "format 9", "format 10", "format 11", "format 12"}) {
        INFO(f);
        const ModelParams q = parsed(without({"peer_args", "fold_rewrite_line", "core_cache_bytes"}, f));
        CHECK(q.peer_args == 0);
        CHECK(q.push_line == doctest::Approx(0.3125));
    }
    ModelParams p = sample();
    p.peer_args = 0;
    CHECK(format_profile(p).find("peer_args") == std::string::npos);
}

TEST_CASE("a profile before format 7, or one without it, has no core_cache_bytes: hwloc's cache sizes") {
    for (const char* f : {"format 6", "format 7", "format 8", "format 9", "format 10", "format 11", "format 12"}) {
        INFO(f);
        const ModelParams q = parsed(without({"fold_rewrite_line", "core_cache_bytes"}, f));
        CHECK(q.core_cache_bytes == 0);
        CHECK(q.peer_args == doctest::Approx(93.75));
    }
    ModelParams p = sample();
    p.core_cache_bytes = 0;
    CHECK(format_profile(p).find("core_cache_bytes") == std::string::npos);
}

TEST_CASE("a profile before format 9, or one without them, has no rewrite knee: rewrite_line throughout") {
    for (const char* f : {"format 8", "format 9", "format 10", "format 11", "format 12"}) {
        INFO(f);
        const ModelParams q = parsed(without({"rewrite_knee", "rewrite_line_beyond", "fold_rewrite_line"}, f));
        CHECK(q.rewrite_knee == 0);
        CHECK(q.rewrite_line_beyond == 0);
        CHECK(q.rewrite_line == doctest::Approx(9.25));
        CHECK(q.alpha.R_mem == doctest::Approx(3.125));
    }
    ModelParams p = sample();
    p.rewrite_knee = p.rewrite_line_beyond = 0;
    CHECK(format_profile(p).find("\nrewrite_knee") == std::string::npos);
    CHECK(format_profile(p).find("\nrewrite_line_beyond") == std::string::npos);
}

TEST_CASE("a profile before format 8, or one without them, has no third-buffer costs") {
    for (const char* f : {"format 7", "format 8"}) {
        INFO(f);
        const ModelParams q = parsed(without_third_buffer(format_profile(sample()), f));
        for (const LinkCost* l : {&q.alpha, &q.beta, &q.levels.at(0).cost, &q.levels.at(1).cost}) {
            CHECK(l->r == 0);
            CHECK(l->R == 0);
            CHECK(l->r_mem == 0);
            CHECK(l->R_mem == 0);
            CHECK(l->C_mem > 0);
        }
        CHECK(q.core_cache_bytes == 20709376);
    }
    // A link without them writes none of its four lines.
    ModelParams p = sample();
    p.beta.r = p.beta.R = p.beta.r_mem = p.beta.R_mem = 0;
    p.beta.R_slices = p.beta.R_slices_mem = 0;
    const std::string text = format_profile(p);
    CHECK(text.find("beta.r ") == std::string::npos);
    CHECK(text.find("beta.r_mem") == std::string::npos);
    CHECK(text.find("beta.R") == std::string::npos);
    CHECK(text.find("alpha.R_mem 3.125") != std::string::npos);
    CHECK(parsed(text).beta.r == 0);
}

TEST_CASE("a profile before format 10, or one without them, has no slice-fold costs: R's") {
    const ModelParams q = parsed(without_slices(format_profile(sample()), "format 9"));
    for (const LinkCost* l : {&q.alpha, &q.beta, &q.levels.at(0).cost, &q.levels.at(1).cost}) {
        CHECK(l->R_slices == 0);
        CHECK(l->R_slices_mem == 0);
        CHECK(l->R_mem > 0);
    }
    // A link without them writes neither line; the others keep theirs.
    ModelParams p = sample();
    p.alpha.R_slices = p.alpha.R_slices_mem = 0;
    const std::string text = format_profile(p);
    CHECK(text.find("alpha.R_slices") == std::string::npos);
    CHECK(text.find("beta.R_slices 1.6875") != std::string::npos);
    CHECK(parsed(text).alpha.R_slices == 0);
    CHECK(parsed(text).beta.R_slices_mem == doctest::Approx(4.25));
}

TEST_CASE("a profile before format 11, or one without them, has no fold or copy rewrite: rewrite_line's rule") {
    const ModelParams q = parsed(as_format10(format_profile(sample())));
    CHECK(q.switch_handoff == 0);
    CHECK(q.fold_rewrite_line == 0);
    CHECK(q.copy_rewrite_bytes == 0);
    CHECK(q.copy_rewrite_line == 0);
    CHECK(q.rewrite_line == doctest::Approx(9.25));
    CHECK(q.alpha.R_slices == doctest::Approx(0.9375));
    ModelParams p = sample();
    p.fold_rewrite_line = 0;
    CHECK(format_profile(p).find("fold_rewrite_line") == std::string::npos);
    CHECK(parsed(format_profile(p)).fold_rewrite_line == 0);
    CHECK(parsed(format_profile(p)).copy_rewrite_line == doctest::Approx(8.375));
    p.copy_rewrite_bytes = 0;
    CHECK(format_profile(p).find("copy_rewrite") == std::string::npos);
    // Both copy_rewrite fields or neither; the bytes a whole number.
    CHECK(rejection(edited("copy_rewrite_line 8.375\n", "")).find("come together") != std::string::npos);
    CHECK(rejection(edited("copy_rewrite_bytes 1048576", "copy_rewrite_bytes 1048576.5")).find("whole number") !=
          std::string::npos);
    // Only format 11 has it.
    CHECK(rejection(as_format11(format_profile(sample())).replace(as_format11(format_profile(sample())).find("format 11"), 9,
                                                                  "format 10"))
              .find("fold_rewrite_line needs format 11") != std::string::npos);
}

TEST_CASE("a profile before format 12, or one without it, has no switch_handoff: no oversubscription term") {
    CHECK(parsed(format_profile(sample())).switch_handoff == doctest::Approx(1937.5));
    const ModelParams q = parsed(as_format11(format_profile(sample())));
    CHECK(q.switch_handoff == 0);
    CHECK(q.peer_args == doctest::Approx(93.75));
    CHECK(q.fold_rewrite_line == doctest::Approx(7.125));
    ModelParams p = sample();
    p.switch_handoff = 0;
    CHECK(format_profile(p).find("switch_handoff") == std::string::npos);
    // Only format 12 has it.
    std::string t12 = as_format12(format_profile(sample()));
    CHECK(rejection(t12.replace(t12.find("format 12"), 9, "format 11")).find("switch_handoff needs format 12") !=
          std::string::npos);
}

TEST_CASE("a profile before format 13, or one without them, has no fold rewrite knee: fold_rewrite_line throughout") {
    const ModelParams q = parsed(as_format12(format_profile(sample())));
    CHECK(q.rewrite_first == 0);
    CHECK(q.fold_rewrite_knee == 0);
    CHECK(q.fold_rewrite_line_beyond == 0);
    CHECK(q.fold_rewrite_line == doctest::Approx(7.125));
    CHECK(q.switch_handoff == doctest::Approx(1937.5));
    ModelParams p = sample();
    p.fold_rewrite_knee = p.fold_rewrite_line_beyond = 0;
    CHECK(format_profile(p).find("fold_rewrite_knee") == std::string::npos);
    CHECK(format_profile(p).find("fold_rewrite_line_beyond") == std::string::npos);
    // Without fold_rewrite_line (not measured) neither is written.
    p = sample();
    p.fold_rewrite_line = 0;
    CHECK(format_profile(p).find("fold_rewrite_knee") == std::string::npos);
    // Both or neither; only with fold_rewrite_line; only format 13 has them.
    CHECK(rejection(edited("fold_rewrite_line_beyond 3.25\n", "")).find("come together") != std::string::npos);
    CHECK(rejection(edited("fold_rewrite_line 7.125\n", "")).find("needs fold_rewrite_line") != std::string::npos);
    std::string t12 = as_format17(format_profile(sample()));
    t12.replace(t12.find("format 17"), 9, "format 12");
    CHECK(rejection(t12).find("needs format 13") != std::string::npos);
    std::string first_only = as_format12(format_profile(sample())) + "rewrite_first 212.25\n";
    CHECK(rejection(first_only).find("rewrite_first needs format 13") != std::string::npos);
    p = sample();
    p.rewrite_first = 0;
    CHECK(format_profile(p).find("rewrite_first") == std::string::npos);
}

TEST_CASE("inline_read_first: format 14, optional, round trip") {
    const ModelParams q = parsed(format_profile(sample()));
    CHECK(q.inline_read_first == doctest::Approx(187.5));
    // Before format 14, or not measured: none (nothing charged).
    CHECK(parsed(as_format13(format_profile(sample()))).inline_read_first == 0);
    ModelParams p = sample();
    p.inline_read_first = 0;
    CHECK(format_profile(p).find("inline_read_first") == std::string::npos);
    std::string t13 = as_format13(format_profile(sample())) + "inline_read_first 187.5\n";
    CHECK(rejection(t13).find("inline_read_first needs format 14") != std::string::npos);
}

TEST_CASE("fold_stream_line: format 15, optional, round trip") {
    const ModelParams q = parsed(format_profile(sample()));
    CHECK(q.fold_stream_line == doctest::Approx(2.625));
    // Before format 15, or not measured: none (tiled_push's fold and pushes).
    CHECK(parsed(as_format14(format_profile(sample()))).fold_stream_line == 0);
    ModelParams p = sample();
    p.fold_stream_line = 0;
    CHECK(format_profile(p).find("fold_stream_line") == std::string::npos);
    std::string t14 = as_format14(format_profile(sample())) + "fold_stream_line 2.625\n";
    CHECK(rejection(t14).find("fold_stream_line needs format 15") != std::string::npos);
    CHECK(rejection(edited("fold_stream_line 2.625", "fold_stream_line -1")).find("positive") != std::string::npos);
}

TEST_CASE("push_line_beyond: format 16, optional, round trip") {
    const ModelParams q = parsed(format_profile(sample()));
    CHECK(q.push_line_beyond == doctest::Approx(0.6875));
    // Before format 16, or not measured: none (pushes past the L2 cost C).
    CHECK(parsed(as_format15(format_profile(sample()))).push_line_beyond == 0);
    ModelParams p = sample();
    p.push_line_beyond = 0;
    CHECK(format_profile(p).find("push_line_beyond") == std::string::npos);
    std::string t15 = as_format15(format_profile(sample())) + "push_line_beyond 0.6875\n";
    CHECK(rejection(t15).find("push_line_beyond needs format 16") != std::string::npos);
    CHECK(rejection(edited("push_line_beyond 0.6875", "push_line_beyond 0")).find("positive") != std::string::npos);
}

TEST_CASE("rewrite_all_line and claim_line: format 17, optional, round trip") {
    const ModelParams q = parsed(format_profile(sample()));
    CHECK(q.rewrite_all_line == doctest::Approx(6.875));
    CHECK(q.claim_line == doctest::Approx(72.5));
    // Before format 17, or not measured: none (rewrite_line's rule, no claims).
    const ModelParams old = parsed(as_format16(format_profile(sample())));
    CHECK(old.rewrite_all_line == 0);
    CHECK(old.claim_line == 0);
    ModelParams p = sample();
    p.rewrite_all_line = 0;
    p.claim_line = 0;
    CHECK(format_profile(p).find("rewrite_all_line") == std::string::npos);
    CHECK(format_profile(p).find("claim_line") == std::string::npos);
    const std::string t16 = as_format16(format_profile(sample()));
    CHECK(rejection(t16 + "rewrite_all_line 6.875\n").find("rewrite_all_line needs format 17") != std::string::npos);
    CHECK(rejection(t16 + "claim_line 72.5\n").find("claim_line needs format 17") != std::string::npos);
    CHECK(rejection(edited("claim_line 72.5", "claim_line -1")).find("positive") != std::string::npos);
}

TEST_CASE("b_l2, c_l2, r_l2 and near_line, near_lines: format 18, optional, round trip") {
    const ModelParams q = parsed(format_profile(sample()));
    CHECK(q.alpha.b_l2 == doctest::Approx(0.8125));
    CHECK(q.beta.r_l2 == doctest::Approx(2.3125));
    REQUIRE(q.levels.size() == 2);
    CHECK(q.levels[1].cost.c_l2 == doctest::Approx(0.6875));
    CHECK(q.near_line == doctest::Approx(5.125));
    CHECK(q.near_lines == doctest::Approx(584));
    // Before format 18, or not measured: none (b, c, r at every size in
    // cache, no excess for a step's first lines).
    const ModelParams old = parsed(as_format17(format_profile(sample())));
    for (const LinkCost& l : {old.alpha, old.beta, old.levels[0].cost, old.levels[1].cost}) {
        CHECK(l.b_l2 == 0);
        CHECK(l.c_l2 == 0);
        CHECK(l.r_l2 == 0);
    }
    CHECK(old.near_line == 0);
    CHECK(old.near_lines == 0);
    ModelParams p = sample();
    p.near_line = p.near_lines = 0;
    p.alpha.b_l2 = 0;  // one of the three missing: the link writes none of them
    const std::string t = format_profile(p);
    CHECK(t.find("\nnear_line") == std::string::npos);
    CHECK(t.find("alpha.c_l2") == std::string::npos);
    CHECK(t.find("beta.c_l2") != std::string::npos);
    const std::string t17 = as_format17(format_profile(sample()));
    CHECK(rejection(t17 + "near_line 5\nnear_lines 500\n").find("near_line needs format 18") != std::string::npos);
    CHECK(rejection(t17 + "alpha.b_l2 1\n").find("alpha.b_l2 needs format 18") != std::string::npos);
    CHECK(rejection(edited("\nnear_lines 584\n", "\n")).find("near_line and near_lines come together") !=
          std::string::npos);
    CHECK(rejection(edited("\nalpha.r_l2 1.4375\n", "\n")).find("alpha needs all of b_l2, c_l2, r_l2") !=
          std::string::npos);
    CHECK(rejection(edited("\nlevel.node.c_l2 0.6875\n", "\n")).find("level.node needs all of b_l2, c_l2, r_l2") !=
          std::string::npos);
    CHECK(rejection(edited("alpha.b_l2 0.8125", "alpha.b_l2 0")).find("positive") != std::string::npos);
}

TEST_CASE("push_held_line: format 20, optional, round trip") {
    CHECK(parsed(format_profile(sample())).push_held_line == doctest::Approx(1.4375));
    // Before format 20, or not measured (or measured hidden under the fold):
    // none, and tiled_push's pushes in the L2 are charged nothing.
    const ModelParams old = parsed(as_format19(format_profile(sample())));
    CHECK(old.push_held_line == 0);
    CHECK(old.push_line_beyond == doctest::Approx(0.6875));  // format 19's fields stay
    CHECK(old.slice_near_line == doctest::Approx(3.8125));
    ModelParams p = sample();
    p.push_held_line = 0;
    CHECK(format_profile(p).find("push_held_line") == std::string::npos);
    CHECK(rejection(as_format19(format_profile(sample())) + "push_held_line 1.5\n").find("push_held_line needs format 20") !=
          std::string::npos);
    CHECK(rejection(edited("push_held_line 1.4375", "push_held_line 0")).find("positive") != std::string::npos);
}

TEST_CASE("nt_copy_from and nt_copy_ratio: format 21, optional, both or neither, round trip") {
    CHECK(parsed(format_profile(sample())).nt_copy_from == 4194304);
    CHECK(parsed(format_profile(sample())).nt_copy_ratio == doctest::Approx(0.8125));
    // Before format 21, or never cheaper: none, and copies into receive
    // buffers store non-temporally only past the cache.
    const ModelParams old = parsed(as_format20(format_profile(sample())));
    CHECK(old.nt_copy_from == 0);
    CHECK(old.nt_copy_ratio == 0);
    CHECK(old.push_held_line == doctest::Approx(1.4375));  // format 20's fields stay
    ModelParams p = sample();
    p.nt_copy_from = 0;
    CHECK(format_profile(p).find("nt_copy_from") == std::string::npos);
    const std::string early = as_format20(format_profile(sample())) + "nt_copy_from 4194304\n";
    CHECK(rejection(early).find("nt_copy_from needs format 21") != std::string::npos);
    CHECK(rejection(edited("nt_copy_from 4194304", "nt_copy_from 0.5")).find("whole number of bytes") !=
          std::string::npos);
    CHECK(rejection(edited("nt_copy_ratio 0.8125\n", "")).find("nt_copy_from and nt_copy_ratio come together") !=
          std::string::npos);
}

TEST_CASE("b_l1, r_l1 and R_slices_l1: format 22, optional, round trip") {
    const ModelParams q = parsed(format_profile(sample()));
    CHECK(q.alpha.b_l1 == doctest::Approx(0.40625));
    CHECK(q.alpha.r_l1 == doctest::Approx(0.65625));
    CHECK(q.alpha.R_slices_l1 == doctest::Approx(0.21875));
    CHECK(q.beta.r_l1 == doctest::Approx(1.15625));
    CHECK(q.beta.R_slices_l1 == 0);
    REQUIRE(q.levels.size() == 2);
    CHECK(q.levels[0].cost.R_slices_l1 == doctest::Approx(0.21875));
    CHECK(q.levels[1].cost.b_l1 == 0);
    // Before format 22, or not measured: none (the L2s' costs from a
    // step's first line).
    const ModelParams old = parsed(as_format21(format_profile(sample())));
    for (const LinkCost& l : {old.alpha, old.beta, old.levels[0].cost, old.levels[1].cost})
        CHECK(l.b_l1 + l.r_l1 + l.R_slices_l1 == 0);
    CHECK(old.nt_copy_from == 4194304);  // format 21's fields stay
    ModelParams p = sample();
    p.alpha.r_l1 = 0;  // one of the two missing: the link writes neither
    CHECK(format_profile(p).find("alpha.b_l1") == std::string::npos);
    const std::string t21 = as_format21(format_profile(sample()));
    CHECK(rejection(t21 + "alpha.b_l1 1\n").find("alpha.b_l1 needs format 22") != std::string::npos);
    CHECK(rejection(edited("\nbeta.r_l1 1.15625\n", "\n")).find("beta needs both of b_l1, r_l1") !=
          std::string::npos);
    CHECK(rejection(edited("alpha.R_slices_l1 0.21875", "alpha.R_slices_l1 -1")).find("positive") !=
          std::string::npos);
    // R_slices_l1 only with the link's R_slices, R_slices_mem.
    std::string u = format_profile(sample());
    for (const char* k : {"\nalpha.R_slices ", "\nalpha.R_slices_mem ", "\nalpha.R_slices_l2 "}) {
        const std::size_t at = u.find(k);
        REQUIRE(at != std::string::npos);
        u.erase(at + 1, u.find('\n', at + 1) - at);
    }
    CHECK(rejection(u).find("alpha's R_slices_l1 needs R_slices, R_slices_mem") != std::string::npos);
    // A level's in-L1 fields come after its others.
    const std::string t22 = format_profile(sample());
    CHECK(rejection(t22.substr(0, t22.find("\nlevel.")) + "\nlevel.l3.b_l1 1\n").find("comes after") !=
          std::string::npos);
}

TEST_CASE("R_slices_l2 and slice_near_line, slice_near_lines: format 19, optional, round trip") {
    const ModelParams q = parsed(format_profile(sample()));
    CHECK(q.alpha.R_slices_l2 == doctest::Approx(0.4375));
    CHECK(q.beta.R_slices_l2 == doctest::Approx(1.0625));
    REQUIRE(q.levels.size() == 2);
    CHECK(q.levels[0].cost.R_slices_l2 == doctest::Approx(0.4375));
    CHECK(q.levels[1].cost.R_slices_l2 == 0);
    CHECK(q.slice_near_line == doctest::Approx(3.8125));
    CHECK(q.slice_near_lines == doctest::Approx(155));
    // Before format 19, or not measured: none (R_slices at every size in
    // cache, no excess for a slice's first lines).
    const ModelParams old = parsed(as_format18(format_profile(sample())));
    for (const LinkCost& l : {old.alpha, old.beta, old.levels[0].cost, old.levels[1].cost}) CHECK(l.R_slices_l2 == 0);
    CHECK(old.slice_near_line == 0);
    CHECK(old.slice_near_lines == 0);
    CHECK(old.alpha.r_l2 == doctest::Approx(1.4375));  // format 18's fields stay
    ModelParams p = sample();
    p.slice_near_line = p.slice_near_lines = 0;
    p.beta.R_slices = 0;  // no slice costs: no R_slices_l2 written either
    const std::string t = format_profile(p);
    CHECK(t.find("slice_near_line") == std::string::npos);
    CHECK(t.find("beta.R_slices_l2") == std::string::npos);
    CHECK(t.find("alpha.R_slices_l2") != std::string::npos);
    const std::string t18 = as_format18(format_profile(sample()));
    CHECK(rejection(t18 + "slice_near_line 3\nslice_near_lines 100\n").find("slice_near_line needs format 19") !=
          std::string::npos);
    CHECK(rejection(t18 + "alpha.R_slices_l2 1\n").find("alpha.R_slices_l2 needs format 19") != std::string::npos);
    CHECK(rejection(edited("\nslice_near_lines 155\n", "\n")).find("slice_near_line and slice_near_lines come") !=
          std::string::npos);
    CHECK(rejection(edited("alpha.R_slices_l2 0.4375", "alpha.R_slices_l2 -1")).find("positive") != std::string::npos);
    // Only with the link's R_slices, R_slices_mem.
    std::string u = format_profile(sample());
    for (const char* k : {"\nbeta.R_slices ", "\nbeta.R_slices_mem "}) {
        const std::size_t at = u.find(k);
        REQUIRE(at != std::string::npos);
        u.erase(at + 1, u.find('\n', at + 1) - at);
    }
    CHECK(rejection(u).find("beta's R_slices_l2 needs R_slices, R_slices_mem") != std::string::npos);
}

TEST_CASE("the default parameters are usable and format as a valid profile") {
    const ModelParams d = default_model_params();
    for (const LinkCost& l : {d.alpha, d.beta}) {
        CHECK(l.a > 0);
        CHECK(l.b > 0);
        CHECK(l.B > 0);
        CHECK(l.b <= l.b_mem);
        CHECK(l.B <= l.B_mem);
        CHECK(l.B <= l.b);
        // The copy costs: positive, the same orderings, and no dearer than a reduction.
        CHECK(l.c > 0);
        CHECK(l.C > 0);
        CHECK(l.c <= l.c_mem);
        CHECK(l.C <= l.C_mem);
        CHECK(l.C <= l.c);
        CHECK(l.C_mem <= l.c_mem);
        CHECK(l.c <= l.b);
        CHECK(l.C <= l.B);
        CHECK(l.c_mem <= l.b_mem);
        CHECK(l.C_mem <= l.B_mem);
    }
    for (double LinkCost::*f : {&LinkCost::a, &LinkCost::b, &LinkCost::B, &LinkCost::b_mem, &LinkCost::B_mem,
                                &LinkCost::c, &LinkCost::C, &LinkCost::c_mem, &LinkCost::C_mem})
        CHECK(d.alpha.*f <= d.beta.*f);
    CHECK(d.alpha.a <= d.beta.a);
    CHECK(d.copy_bandwidth > 0);
    CHECK(d.nt_copy_bandwidth > 0);
    CHECK(d.call_overhead > 0);
    CHECK(d.switch_handoff > d.beta.a);  // a CPU switch dearer than a handoff across cores
    CHECK(d.source == "built-in default");
    std::string error;
    auto q = parse_profile(format_profile(d), &error);
    REQUIRE_MESSAGE(q.has_value(), error);
    same_link(q->alpha, d.alpha);
    same_link(q->beta, d.beta);
}

TEST_CASE("malformed profiles are rejected with a reason") {
    CHECK(rejection("").find("format") != std::string::npos);
    CHECK(rejection(edited("format 22", "format 23")).find("format 23") != std::string::npos);
    // A format-1 profile (before call_overhead) asks for a new calibration.
    CHECK(rejection(edited("format 22", "format 1")).find("run hmpi-calibrate again") != std::string::npos);
    // The slice folds' costs: format 10, both of a link or neither, and only
    // with the third-buffer costs.
    CHECK(rejection(edited("format 22", "format 9")).find("alpha.R_slices needs format 10") != std::string::npos);
    CHECK(rejection(edited("beta.R_slices_mem 4.25\n", "")).find("beta needs both of R_slices, R_slices_mem") !=
          std::string::npos);
    CHECK(rejection(edited("level.l3.R_slices 0.9375\n", "")).find("level.l3 needs both of R_slices") !=
          std::string::npos);
    CHECK(rejection(edited("alpha.R_slices 0.9375", "alpha.R_slices 0")).find("positive") != std::string::npos);
    // The rewrite knee: format 9, both or neither.
    CHECK(rejection(without_third_buffer(format_profile(sample()), "format 8") + "rewrite_knee 32\n")
              .find("rewrite_knee needs format 9") != std::string::npos);
    CHECK(rejection(edited("rewrite_line_beyond 21.5\n", "")).find("rewrite_knee and rewrite_line_beyond") !=
          std::string::npos);
    CHECK(rejection(edited("rewrite_knee 48\n", "")).find("rewrite_knee and rewrite_line_beyond") !=
          std::string::npos);
    CHECK(rejection(edited("rewrite_knee 48", "rewrite_knee 0")).find("positive") != std::string::npos);
    // Format 3 needs the sharer and source costs; format 2 has no such keys.
    CHECK(rejection(edited("rewrite_line 9.25\n", "")).find("rewrite_line is missing") != std::string::npos);
    CHECK(rejection(edited("source_line 1.375\n", "")).find("source_line is missing") != std::string::npos);
    CHECK(rejection(edited("source_line 1.375", "source_line 0")).find("positive") != std::string::npos);
    CHECK(rejection(without_third_buffer(format_profile(sample()), "format 2")).find("rewrite_line needs format 3") != std::string::npos);
    CHECK(rejection(without_third_buffer(format_profile(sample()), "format 3")).find("busy_step needs format 4") != std::string::npos);
    CHECK(rejection(without_third_buffer(format_profile(sample()), "format 4")).find("step_overhead needs format 5") != std::string::npos);
    CHECK(rejection(edited("step_overhead 161.25", "step_overhead 0")).find("positive") != std::string::npos);
    CHECK(rejection(edited("poll_line 41.5", "poll_line nan")).find("positive") != std::string::npos);
    CHECK(rejection(edited("push_line 0.3125", "push_line -1")).find("positive") != std::string::npos);
    CHECK(rejection(without_third_buffer(format_profile(sample()), "format 5")).find("peer_args needs format 6") != std::string::npos);
    CHECK(rejection(edited("peer_args 93.75", "peer_args 0")).find("positive") != std::string::npos);
    CHECK(rejection(without_third_buffer(format_profile(sample()), "format 6")).find("core_cache_bytes needs format 7") != std::string::npos);
    // The third-buffer costs: format 8, all four of a link or none.
    CHECK(rejection(without_knee(without_slices(format_profile(sample()), "format 7"))).find("alpha.r needs format 8") !=
          std::string::npos);
    CHECK(rejection(edited("alpha.R 1.0625\n", "")).find("alpha needs all of r, R, r_mem, R_mem") !=
          std::string::npos);
    CHECK(rejection(edited("level.node.r_mem 7.5\n", "")).find("level.node needs all of r, R, r_mem, R_mem") !=
          std::string::npos);
    CHECK(rejection(edited("beta.R_mem 5.5", "beta.R_mem 0")).find("positive") != std::string::npos);
    CHECK(parse_profile(edited("core_cache_bytes 20709376", "core_cache_bytes 2.5e7"), nullptr)->core_cache_bytes ==
          25000000);
    CHECK(rejection(edited("core_cache_bytes 20709376", "core_cache_bytes 1024.5")).find("whole number") !=
          std::string::npos);
    CHECK(rejection(edited("core_cache_bytes 20709376", "core_cache_bytes 0")).find("positive") != std::string::npos);
    CHECK(rejection(edited("busy_step 47.5", "busy_step 0")).find("positive") != std::string::npos);
    CHECK(rejection(edited("call_overhead 135.5\n", "")).find("call_overhead is missing") != std::string::npos);
    CHECK(rejection(edited("alpha.a 212.5", "alpha.a -3")).find("positive") != std::string::npos);
    CHECK(rejection(edited("alpha.a 212.5", "alpha.a 0")).find("positive") != std::string::npos);
    CHECK(rejection(edited("alpha.b 1.25", "alpha.b nan")).find("alpha.b") != std::string::npos);
    CHECK(rejection(edited("alpha.b 1.25", "alpha.b inf")).find("alpha.b") != std::string::npos);
    CHECK(rejection(edited("alpha.b 1.25", "alpha.b 1.25ns")).find("not a number") != std::string::npos);
    CHECK(rejection(edited("alpha.b 1.25", "alpha.b")).find("no value") != std::string::npos);
    CHECK(rejection(edited("beta.B_mem 4\n", "")).find("beta.B_mem") != std::string::npos);
    CHECK(rejection(edited("copy_bandwidth 11.75\n", "")).find("copy_bandwidth") != std::string::npos);
    CHECK(rejection(edited("alpha.a 212.5", "alpha.d 212.5")).find("alpha.d") != std::string::npos);
    CHECK(rejection(edited("alpha.a 212.5", "alpha.c_reduce 212.5")).find("alpha.c_reduce") != std::string::npos);
    // The copy costs are required like the others, naming the missing key
    // and asking for a new calibration (profiles from before them lack them).
    CHECK(rejection(edited("alpha.c 0.875\n", "")).find("alpha.c is missing") != std::string::npos);
    CHECK(rejection(edited("alpha.c 0.875\n", "")).find("run hmpi-calibrate again") != std::string::npos);
    CHECK(rejection(edited("beta.C 1.125\n", "")).find("beta.C is missing") != std::string::npos);
    CHECK(rejection(edited("alpha.c_mem 2.75\n", "")).find("alpha.c_mem") != std::string::npos);
    CHECK(rejection(edited("beta.C_mem 3.25\n", "")).find("beta.C_mem") != std::string::npos);
    CHECK(rejection(edited("alpha.C 0.625", "alpha.C -1")).find("positive") != std::string::npos);
    CHECK(rejection(edited("alpha.c 0.875", "alpha.c 0.875\nalpha.c 1")).find("repeated") != std::string::npos);
    CHECK(rejection(edited("level.l3.C_mem 1.75\n", "")).find(
              "level.l3 needs all of a, b, B, b_mem, B_mem, c, C, c_mem, C_mem") != std::string::npos);
    CHECK(rejection(edited("alpha.a 212.5", "gamma.a 212.5")).find("gamma.a") != std::string::npos);
    CHECK(rejection(edited("level.l3.a", "level.l4.a")).find("l4") != std::string::npos);
    CHECK(rejection(edited("level.node.B_mem 4\n", "")).find("level.node") != std::string::npos);
    CHECK(rejection(edited("alpha.a 212.5", "alpha.a 212.5\nalpha.a 300")).find("repeated") != std::string::npos);
    std::string no_key = format_profile(sample());
    no_key.erase(no_key.find("topology_key"), no_key.find('\n', no_key.find("topology_key")) + 1 - no_key.find("topology_key"));
    CHECK(rejection(no_key).find("topology_key") != std::string::npos);
}

TEST_CASE("the topology key and the default location") {
    const std::string key = machine_topology_key();
    CHECK_FALSE(key.empty());
    CHECK(key == machine_topology_key());  // stable
    CHECK(key.find("core") != std::string::npos);
    const std::string name = profile_file_name("x86_64:1pkg:2core:1pu/core:L3=105MiB");
    CHECK(name == "profile-x86_64_1pkg_2core_1pu_core_L3_105MiB.txt");
    CHECK(default_profile_path().find(profile_file_name(key)) != std::string::npos);
}

TEST_CASE("set_model_params replaces what model_params returns") {
    ModelParams p = sample();
    p.source = "test";
    set_model_params(p);
    CHECK(model_params().source == "test");
    CHECK(model_params().alpha.a == doctest::Approx(212.5));
    set_model_params(default_model_params());
    CHECK(model_params().source == "built-in default");
}

TEST_CASE("a profile of several machine states: stateN lines, round trip, errors that name the state") {
    ModelParams p = sample();
    ModelParams slow = sample();
    slow.alpha.a = 288.5;
    slow.alpha.c = 1.84;
    slow.copy_bandwidth = 21.3;
    p.other_states = {slow};
    const std::string text = format_profile(p);
    CHECK(text.find("\nstate2.format ") != std::string::npos);
    CHECK(text.find("\nstate2.alpha.a 288.5") != std::string::npos);
    CHECK(text.find("\nstate3.") == std::string::npos);
    std::string error;
    auto q = parse_profile(text, &error);
    REQUIRE_MESSAGE(q.has_value(), error);
    same_link(q->alpha, p.alpha);
    REQUIRE(q->other_states.size() == 1);
    same_link(q->other_states[0].alpha, slow.alpha);
    CHECK(q->other_states[0].copy_bandwidth == doctest::Approx(21.3));
    CHECK(q->other_states[0].topology_key == p.topology_key);
    CHECK(format_profile(*q) == text);
    // One state: no state lines, none read back.
    auto one = parse_profile(format_profile(sample()), &error);
    REQUIRE(one.has_value());
    CHECK(one->other_states.empty());

    // A state's error names the state and the file's line.
    std::string bad = text;
    const std::size_t at = bad.find("state2.alpha.a 288.5");
    bad.replace(at, std::string("state2.alpha.a 288.5").size(), "state2.alpha.a -1");
    const std::size_t line = static_cast<std::size_t>(std::count(text.begin(), text.begin() + at, '\n')) + 1;
    const std::string why = rejection(bad);
    CHECK(why.find("state2: line " + std::to_string(line) + ":") != std::string::npos);
    CHECK(why.find("positive") != std::string::npos);
    // States come in order, on the first state's topology.
    std::string skipped = text;
    for (std::size_t i; (i = skipped.find("state2.")) != std::string::npos;) skipped.replace(i, 7, "state3.");
    CHECK(rejection(skipped).find("state3 comes before state2") != std::string::npos);
    std::string elsewhere = text;
    const std::size_t key = elsewhere.find("state2.topology_key ");
    elsewhere.insert(elsewhere.find('\n', key), "-other");
    CHECK(rejection(elsewhere).find("state2 was measured on topology") != std::string::npos);
}
