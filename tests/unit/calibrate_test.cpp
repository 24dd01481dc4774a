// hmpi-calibrate's rules that do not need a machine to measure
// (tools/hmpi-calibrate/measure.hpp).
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstddef>
#include <ctime>
#include <vector>

#include "tools/hmpi-calibrate/measure.hpp"

using hmpi::calibrate::busy_ticks;
using hmpi::calibrate::cpu_ticks_now;
using hmpi::calibrate::CpuTicks;
using hmpi::calibrate::interrupted_sizes;
using hmpi::calibrate::other_work;
using hmpi::calibrate::nt_copy_from_bytes;
using hmpi::calibrate::L1Split;
using hmpi::calibrate::L2Split;
using hmpi::calibrate::fit_rewrite;
using hmpi::calibrate::RewriteFit;
using hmpi::calibrate::robust_fit;
using hmpi::calibrate::sizes_in_l2;
using hmpi::calibrate::SliceSplit;
using hmpi::calibrate::speed_changed;
using hmpi::calibrate::split_at_l1;
using hmpi::calibrate::split_at_l2;
using hmpi::calibrate::split_slices_at_l2;

TEST_CASE("the speed check flags a handoff that more than doubled or halved") {
    // The 2-core guest's two states (docs/performance-collectives.md, stop 30).
    CHECK(speed_changed(60, 300));
    CHECK(speed_changed(300, 60));
    CHECK(speed_changed(100, 201));
    // A noisy but steady machine.
    CHECK_FALSE(speed_changed(100, 200));
    CHECK_FALSE(speed_changed(250, 140));
    CHECK_FALSE(speed_changed(55, 55));
    // Nothing measured (one core): no verdict.
    CHECK_FALSE(speed_changed(0, 300));
    CHECK_FALSE(speed_changed(300, 0));
}

TEST_CASE("other work during a step: busy ticks not this process's, in CPU seconds and cores") {
    // 100 ticks a second; 2 s of wall time: the machine busy 150 ticks, of
    // which this process 90: 0.6 s of other work, 0.3 cores.
    const CpuTicks before{1000, 400, 10.0}, after{1150, 490, 12.0};
    CHECK(other_work(before, after, 100).cpu_s == doctest::Approx(0.6));
    CHECK(other_work(before, after, 100).cores == doctest::Approx(0.3));
    // This process alone (its count may run ahead of the machine's by a
    // tick): none.
    const CpuTicks alone{1150, 560, 12.0};
    CHECK(other_work(before, alone, 100).cores == 0);
    // Unreadable samples or no time: no verdict.
    CHECK(other_work(CpuTicks{}, after, 100).cores == 0);
    CHECK(other_work(before, before, 100).cores == 0);
    CHECK(other_work(before, after, 0).cpu_s == 0);
}

TEST_CASE("other work is counted on this process's CPUs only: /proc/stat's per-CPU lines") {
    // user nice system idle iowait irq softirq steal guest guest_nice
    const char* stat =
        "cpu  300 0 60 900 0 0 6 30 0 0\n"
        "cpu0 100 0 20 300 0 0 2 10 0 0\n"
        "cpu1 200 0 40 600 0 0 4 20 0 0\n"
        "intr 12345 0 0\n";
    cpu_set_t only0, none;
    CPU_ZERO(&only0);
    CPU_ZERO(&none);
    CPU_SET(0, &only0);
    int cpus = 0;
    // CPU 0: user + system + softirq + steal; idle and iowait are not busy.
    CHECK(busy_ticks(stat, only0, &cpus) == doctest::Approx(132));
    CHECK(cpus == 1);
    // No affinity known: every CPU's lines (not the total's).
    CHECK(busy_ticks(stat, none, &cpus) == doctest::Approx(396));
    CHECK(cpus == 2);
    CHECK(busy_ticks("intr 1 2 3\n", none, &cpus) == 0);
    CHECK(cpus == 0);
}

TEST_CASE("this process's CPU time is read back from /proc") {
    const double ticks_per_s = static_cast<double>(sysconf(_SC_CLK_TCK));
    const CpuTicks before = cpu_ticks_now();
    REQUIRE(before.busy >= 0);  // Linux: /proc/stat and /proc/self/stat
    // Spin until this process has used 0.3 s of CPU, however busy the machine.
    const std::clock_t start = std::clock();
    volatile unsigned sink = 0;
    while (std::clock() - start < CLOCKS_PER_SEC * 3 / 10) sink = sink + 1;
    const CpuTicks after = cpu_ticks_now();
    CHECK(after.self - before.self >= 0.2 * ticks_per_s);
    CHECK(after.busy - before.busy >= 0.2 * ticks_per_s);
    CHECK(after.wall_s > before.wall_s);
}

TEST_CASE("a sweep's sizes in the L2: those within the limit, less the intercept, and whether one reaches past") {
    // 1 MiB L2; 3 buffers of 64 B a line: 1024 lines take 192 KiB, 8192 lines 1.5 MiB, 16384 lines 3 MiB.
    const std::vector<double> x = {1024, 4096, 8192, 16384}, y = {100, 400, 900, 2000};
    std::vector<double> ix, iy;
    CHECK(sizes_in_l2(x, y, 3 * 64.0, 0.75 * (1 << 20), 1 << 20, 10.0, ix, iy));
    CHECK(ix == std::vector<double>{1024, 4096});  // 8192 lines: 1.5 MiB, past 3/4 MiB but short of the L2
    CHECK(iy == std::vector<double>{90, 390});
    // Nothing reaches a whole L2: no "beyond".
    ix.clear();
    iy.clear();
    CHECK_FALSE(sizes_in_l2({1024, 2048}, {100, 200}, 3 * 64.0, 0.75 * (1 << 20), 1 << 20, 0.0, ix, iy));
    CHECK(ix.size() == 2);
}

TEST_CASE("a sweep's sizes off a straight line are not interrupted ones: the split at the L2 keeps them") {
    // Stop 55's third-buffer reduction sweep on the 2-core guest
    // (docs/results/collectives-np2/stop55/barrier/calibrate.log.gz): lines, ns a step.
    const std::vector<double> x = {1,    2,    4,    8,     16,    32,    64,     128,    256,    512,
                                   1024, 2048, 4096, 8192,  16384, 32768, 65536, 131072, 174762};
    std::vector<double> y = {143.5,  143.5,   162.5,   231.5,    293.5,    431.5,    671.5,
                             1195.5, 2211.5,  4181.5,  6885.5,   11695.5,  17718.5,  32332.5,
                             99904.5, 232860.5, 464292.0, 919405.5, 1228109.5};
    const double a = 155.156;
    // A line fitted to all of them misses 4096 and 8192 lines by more than
    // half and leaves them out; none was interrupted.
    double fa = 0, fb = 0;
    std::vector<double> dropped;
    robust_fit(x, y, &fa, &fb, &dropped);
    CHECK(dropped == std::vector<double>{8192, 4096});
    CHECK(interrupted_sizes(x, y, a).empty());
    // With them, the in-L2 sizes' largest three (3 buffers of 8192 lines
    // take 1.5 MiB: half of each 2 MiB L2 at most) give r_l2 3.39 ns a
    // line; without them 512-2048 lines gave 4.86 (the profile stop 55 ran with).
    const L2Split with = split_at_l2(x, y, a, 3, 2u << 20);
    REQUIRE(with.found);
    CHECK(with.l2 == doctest::Approx(3.389).epsilon(0.001));
    std::vector<double> kx, ky;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (x[i] != 4096 && x[i] != 8192) {
            kx.push_back(x[i]);
            ky.push_back(y[i]);
        }
    CHECK(split_at_l2(kx, ky, a, 3, 2u << 20).l2 == doctest::Approx(4.864).epsilon(0.001));
    // An interrupted size, in the L2s or past them, is found.
    y[13] *= 25;
    y[16] *= 20;
    CHECK(interrupted_sizes(x, y, a) == std::vector<double>{8192, 65536});
    // A small size interrupted too: its step less a is far above the others'.
    y[4] = 2000;
    CHECK(interrupted_sizes(x, y, a) == std::vector<double>{16, 8192, 65536});
    CHECK(interrupted_sizes({}, {}, a).empty());
}

TEST_CASE("the slices ring splits at 3/4 of an L2 a thread: its in-L2 slope and its first lines' excess") {
    // Stop 53's calibration on the 2-core Xeon guest (t = 2, 2 MiB L2s):
    // lines a thread, ns a step (docs/results/collectives-np2/stop53).
    const std::vector<double> x = {1,    2,    4,    8,     16,    32,    64,     128,    256,    512,
                                   1024, 2048, 4096, 8192,  16384, 32768, 65536,  87381};
    const std::vector<double> y = {232,    240,    286,    319,    392,    514,      747,     1217,   1881,
                                   2527,   5033,   8113,   15636,  33222,  106116, 221121, 450908.5, 592777};
    const SliceSplit s = split_slices_at_l2(x, y, 3, 2u << 20, 0.75);
    REQUIRE(s.found);
    // The in-L2 sizes' largest three: 2048, 4096 and 8192 lines a thread
    // (8192: 1.5 MiB, 3/4 of the L2).
    CHECK(s.slope == doctest::Approx(4.116).epsilon(0.001));
    CHECK(s.near_line == doctest::Approx(3.803).epsilon(0.001));
    CHECK(s.near_lines == doctest::Approx(155.1).epsilon(0.001));
    // At half an L2 the largest three are 1024-4096 lines.
    CHECK(split_slices_at_l2(x, y, 3, 2u << 20, 0.5).slope < s.slope);
    // No L2 size, too few sizes within it, or none past it: no split.
    CHECK_FALSE(split_slices_at_l2(x, y, 3, 0, 0.75).found);
    const std::vector<double> x5(x.begin(), x.begin() + 5), y5(y.begin(), y.begin() + 5);
    CHECK_FALSE(split_slices_at_l2(x5, y5, 3, 2u << 20, 0.75).found);
    const std::vector<double> xin(x.begin(), x.begin() + 14), yin(y.begin(), y.begin() + 14);
    CHECK_FALSE(split_slices_at_l2(xin, yin, 3, 2u << 20, 0.75).found);
    // A slope that does not rise: no split.
    std::vector<double> flat = y;
    flat[11] = flat[12] = flat[13] = 9000;
    CHECK_FALSE(split_slices_at_l2(x, flat, 3, 2u << 20, 0.75).found);
}

TEST_CASE("the sweeps split at the L1: the in-L1 slope where it is below the in-L2 one") {
    // Stop 59's fast-state calibration on the 2-core EPYC guest (48 KiB L1d):
    // the one-reader third-buffer sweep (3 buffers) and the slices ring (t =
    // 2), lines (a thread), ns a step (docs/results/collectives-np2/stop59/
    // profiles/fast.calibrate.log.gz).
    const std::vector<double> x = {1,   2,    4,    8,    16,   32,    64,    128,   256,
                                   512, 1024, 2048, 4096, 8192, 16384, 32768, 61440};
    const std::vector<double> r = {50,  40,   41,   31,   50,    61,    70,    140,   211,
                                   671, 1372, 2765, 5218, 11637, 25858, 50710.5, 85317};
    const double l1 = 48 << 10;
    // Half an L1 per core: 3 x 64 / 2 bytes a line, up to 256 lines; the
    // largest three 64-256 lines: 0.709 ns a line against r_l2 1.244.
    const L1Split s = split_at_l1(x, r, 96, l1 / 2, 48 << 10, 0, 0, 1.244);
    REQUIRE(s.found);
    CHECK(s.slope == doctest::Approx(0.7087).epsilon(0.001));
    // The near excess, near_line min(m, near_lines), comes off each size
    // first: with 0.5 ns for 100 lines the slope over 64-256 lines changes.
    {
        // Steps less 0.5 min(m, 100): 70 - 32, 140 - 50, 211 - 50.
        const std::vector<double> xs = {64, 128, 256}, ys = {38, 90, 161};
        const double mx = (64 + 128 + 256) / 3.0, my = (38 + 90 + 161) / 3.0;
        double sxy = 0, sxx = 0;
        for (int i = 0; i < 3; ++i) {
            sxy += (xs[i] - mx) * (ys[i] - my);
            sxx += (xs[i] - mx) * (xs[i] - mx);
        }
        CHECK(split_at_l1(x, r, 96, l1 / 2, 48 << 10, 0.5, 100, 1.244).slope == doctest::Approx(sxy / sxx));
    }
    // The reduction sweep (2 buffers: 64 bytes a line a core, up to 384
    // lines): 64-256 lines, 0.770 against b_l2 0.952.
    const std::vector<double> xb = {1,   2,    4,    8,    16,   32,    64,    128,   256,
                                    512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 92160};
    const std::vector<double> b = {50,  50,   50,   50,   51,   70,    70,    130,   220,
                                   420, 1022, 1963, 3916, 7812, 17566, 38638, 80661, 111196};
    CHECK(split_at_l1(xb, b, 64, l1 / 2, 48 << 10, 0, 0, 0.952).slope == doctest::Approx(0.7701).epsilon(0.001));
    // Not below the in-L2 slope: not written.
    CHECK_FALSE(split_at_l1(x, r, 96, l1 / 2, 48 << 10, 0, 0, 0.7).found);
    // No L1 size, no size a whole L1 past, or fewer than three sizes of 16
    // lines or more within: none.
    CHECK_FALSE(split_at_l1(x, r, 96, l1 / 2, 0, 0, 0, 1.244).found);
    const std::vector<double> x9(x.begin(), x.begin() + 9), r9(r.begin(), r.begin() + 9);
    CHECK_FALSE(split_at_l1(x9, r9, 96, l1 / 2, 48 << 10, 0, 0, 1.244).found);
    CHECK_FALSE(split_at_l1(x, r, 96, 96 * 32, 48 << 10, 0, 0, 1.244).found);  // up to 32 lines: two of 16 or more
    // The slices ring at kSliceFoldL1Share (half an L1 a thread: 3 x 64
    // bytes a line, up to 128 lines): 32-128 lines, 0.826 a step's line,
    // R_slices_l1 0.413 a thread, against R_slices_l2 0.722 (1.444 a step's line).
    const std::vector<double> xr = {1,   2,    4,    8,    16,   32,    64,   128,
                                    256, 512, 1024, 2048, 4096, 8192, 16384, 30720};
    const std::vector<double> ring = {61,  61,  71,   71,   71,   81,    111,   161,
                                      291, 722, 1553, 3085, 6000, 12818, 28122, 54847.5};
    const L1Split sl = split_at_l1(xr, ring, 192, 0.5 * l1, 48 << 10, 0, 0, 2 * 0.722);
    REQUIRE(sl.found);
    CHECK(sl.slope / 2 == doctest::Approx(0.4129).epsilon(0.001));
}

TEST_CASE("the copy-in's rewrite: a knee doubles a line's cost, past it the slope there") {
    const std::vector<double> x = {8, 16, 32, 64, 128, 256};
    // Stop 29's guest (docs/model.md, "The copy-in's knee"): 80, 80 and 101
    // ns up to 32 lines, then about 7 ns a line. The knee's whole copy-in
    // per line below it (the model charges no intercept), the slope past it.
    const RewriteFit stalls = fit_rewrite(x, {80, 80, 101, 330, 780, 1700});
    REQUIRE(stalls.knee == 32);
    CHECK(stalls.line == doctest::Approx(101.0 / 32));
    CHECK(stalls.beyond > 6.5);
    CHECK(stalls.beyond < 7.5);
    // A knee whose slope past it (4 ns) is less than the knee's copy-in per
    // line (212 / 32 = 6.6, its first store's round trip included): each
    // further line costs the slope (hmpi-calibrate 19 charged the larger).
    const RewriteFit high_first = fit_rewrite(x, {200, 204, 212, 340, 596, 1108});
    REQUIRE(high_first.knee == 32);
    CHECK(high_first.line == doctest::Approx(212.0 / 32));
    CHECK(high_first.beyond == doctest::Approx(4.0));
    // Stop 59's fast-state calibration on the 2-core EPYC guest
    // (docs/results/collectives-np2/stop59/profiles/fast.calibrate.log.gz):
    // the first store's round trip, then 0.65 ns a line; past 32 lines the
    // slope rises 1.35x only, from the intercept's plateau: no knee, the
    // one slope (03a57ba's fit kept a knee at 32 and charged 2.22 ns a
    // line up to it).
    const RewriteFit epyc = fit_rewrite(x, {60, 60, 71, 101, 140, 211});
    CHECK(epyc.knee == 0);
    CHECK(epyc.line == doctest::Approx(0.65).epsilon(0.01));
    CHECK(epyc.beyond == 0);
    CHECK(epyc.first == doctest::Approx(60 - 8 * epyc.line));
    // One straight line: no knee, its slope.
    const RewriteFit straight = fit_rewrite(x, {20, 40, 80, 160, 320, 640});
    CHECK(straight.knee == 0);
    CHECK(straight.line == doctest::Approx(2.5));
}

TEST_CASE("non-temporal copies from the smallest working set where they win at every larger one") {
    const std::size_t l2 = 2u << 20;
    const std::vector<std::size_t> sets = {l2, 2 * l2, 4 * l2, 8 * l2};
    // The 2-core Xeon guest (stop 57): memcpy wins while the result stays in
    // the L2 (read back by its core), non-temporal stores from two L2s on.
    CHECK(nt_copy_from_bytes(sets, {3.32, 4.72, 4.64, 4.67}, {5.23, 3.89, 3.89, 3.87}) == 2 * l2);
    // Winning at every size: the smallest.
    CHECK(nt_copy_from_bytes(sets, {4, 4, 4, 4}, {3, 3, 3, 3}) == l2);
    // A win that does not last to the largest size is none.
    CHECK(nt_copy_from_bytes(sets, {4, 4, 4, 4}, {5, 3, 3, 4.5}) == 0);
    // A dip back: only the sizes from the last loss on count.
    CHECK(nt_copy_from_bytes(sets, {4, 4, 4, 4}, {3, 4.5, 3, 3}) == 4 * l2);
    // Under 5% cheaper is not cheaper (two calibrations differ by about that).
    CHECK(nt_copy_from_bytes(sets, {4, 4, 4, 4}, {3.9, 3.9, 3.9, 3.9}) == 0);
    CHECK(nt_copy_from_bytes({}, {}, {}) == 0);
}
