// Unit tests of the virtual-topology arithmetic (runtime/core/topology.cpp):
// Dims_create against an exhaustive reference, rank <-> coordinates, shifts,
// and the reordering of Cartesian grids onto cache domains.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <set>
#include <vector>

#include "core/topology.hpp"

using namespace hmpi;

namespace {

// Every factorization of m into k factors in non-increasing order.
void all_factorizations(int m, int k, int largest, std::vector<int>& cur, std::vector<std::vector<int>>& out) {
    if (k == 0) {
        if (m == 1) out.push_back(cur);
        return;
    }
    for (int f = std::min(m, largest); f >= 1; --f) {
        if (m % f) continue;
        cur.push_back(f);
        all_factorizations(m / f, k - 1, f, cur, out);
        cur.pop_back();
    }
}

// The reference answer: the smallest max - min, then the smallest sum of squares.
std::vector<int> reference_dims(int m, int k) {
    std::vector<std::vector<int>> all;
    std::vector<int> cur;
    all_factorizations(m, k, m, cur, all);
    auto key = [](const std::vector<int>& f) {
        std::int64_t sq = 0;
        for (int x : f) sq += std::int64_t{x} * x;
        return std::pair<std::int64_t, std::int64_t>(f.front() - f.back(), sq);
    };
    return *std::min_element(all.begin(), all.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
}

std::vector<int> identity(int n) {
    std::vector<int> v(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
    return v;
}

bool is_permutation_of_ranks(const std::vector<int>& p) {
    std::vector<int> s = p;
    std::sort(s.begin(), s.end());
    return s == identity(static_cast<int>(p.size()));
}

// The domain of each cell once members are placed by new_rank.
std::vector<int> domains_of_cells(const std::vector<int>& new_rank, const std::vector<int>& domain_of_member) {
    std::vector<int> cells(new_rank.size());
    for (std::size_t m = 0; m < new_rank.size(); ++m) cells[static_cast<std::size_t>(new_rank[m])] = domain_of_member[m];
    return cells;
}

}  // namespace

TEST_CASE("dims_fill matches the exhaustive reference with all entries free") {
    for (int k = 1; k <= 5; ++k)
        for (int n = 1; n <= 400; ++n) {
            std::vector<int> dims(static_cast<std::size_t>(k), 0);
            dims_fill(n, k, dims.data());
            CHECK_MESSAGE(dims == reference_dims(n, k), "nnodes " << n << " ndims " << k);
        }
}

TEST_CASE("dims_fill keeps fixed entries and balances only the free ones") {
    for (int n = 1; n <= 240; ++n)
        for (int fixed : {1, 2, 3, 4, 5}) {
            if (n % fixed) continue;
            for (int pos = 0; pos < 3; ++pos) {
                std::vector<int> dims(3, 0);
                dims[static_cast<std::size_t>(pos)] = fixed;
                dims_fill(n, 3, dims.data());
                std::vector<int> free_part;
                for (int i = 0; i < 3; ++i)
                    if (i != pos) free_part.push_back(dims[static_cast<std::size_t>(i)]);
                CHECK(dims[static_cast<std::size_t>(pos)] == fixed);
                CHECK_MESSAGE(free_part == reference_dims(n / fixed, 2), "nnodes " << n << " fixed " << fixed);
            }
        }
    int all_fixed[2] = {3, 4};
    dims_fill(12, 2, all_fixed);
    CHECK(all_fixed[0] == 3);
    CHECK(all_fixed[1] == 4);
}

TEST_CASE("dims_fill stays fast for highly composite sizes and many dimensions") {
    auto start = std::chrono::steady_clock::now();
    for (int n : {735134400, 1102701600, 1073741824, 2147483647, 2 * 3 * 5 * 7 * 11 * 13 * 17 * 19}) {
        for (int k : {1, 2, 3, 4, 6, 8, 12, 20}) {
            std::vector<int> dims(static_cast<std::size_t>(k), 0);
            dims_fill(n, k, dims.data());
            std::int64_t p = 1;
            for (int d : dims) p *= d;
            CHECK(p == n);
            CHECK(std::is_sorted(dims.rbegin(), dims.rend()));
        }
    }
    int d2[2] = {0, 0};
    dims_fill(1 << 30, 2, d2);
    CHECK(d2[0] == 1 << 15);
    CHECK(d2[1] == 1 << 15);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("Cartesian rank and coordinates round-trip, periodic wrap, non-periodic bounds") {
    std::vector<int> dims{3, 4, 2};
    std::vector<char> periods{1, 0, 1};
    int c[3];
    for (int r = 0; r < 24; ++r) {
        cart_coords_of(dims, r, c);
        CHECK(c[0] * 8 + c[1] * 2 + c[2] == r);
        CHECK(cart_rank_of(dims, periods, c) == r);
    }
    int wrapped[3] = {-1, 3, 5};  // -1 -> 2 (periodic), 5 -> 1 (periodic)
    CHECK(cart_rank_of(dims, periods, wrapped) == 2 * 8 + 3 * 2 + 1);
    int outside[3] = {0, 4, 0};  // dimension 1 is not periodic
    CHECK(cart_rank_of(dims, periods, outside) == -1);
    int negative[3] = {0, -1, 0};
    CHECK(cart_rank_of(dims, periods, negative) == -1);
}

TEST_CASE("Cartesian shifts reach MPI_PROC_NULL only past a non-periodic border") {
    std::vector<int> dims{5, 3};
    for (int periodic = 0; periodic <= 1; ++periodic) {
        std::vector<char> periods{static_cast<char>(periodic), 0};
        for (int r = 0; r < 15; ++r)
            for (int disp = -7; disp <= 7; ++disp) {
                int src, dst;
                cart_shift_of(dims, periods, r, 0, disp, &src, &dst);
                int row = r / 3, col = r % 3;
                auto expect = [&](int to) {
                    if (to < 0 || to >= 5) {
                        if (!periodic) return int{MPI_PROC_NULL};
                        to = ((to % 5) + 5) % 5;
                    }
                    return to * 3 + col;
                };
                CHECK(dst == expect(row + disp));
                CHECK(src == expect(row - disp));
                cart_shift_of(dims, periods, r, 1, disp, &src, &dst);
                int to = col + disp, from = col - disp;
                CHECK(dst == ((to < 0 || to >= 3) ? MPI_PROC_NULL : row * 3 + to));
                CHECK(src == ((from < 0 || from >= 3) ? MPI_PROC_NULL : row * 3 + from));
            }
    }
}

TEST_CASE("cross-domain pair counting") {
    // 4x4 grid, one domain per row: 3 row boundaries of 4 pairs each, plus the wrap when periodic.
    std::vector<int> dims{4, 4};
    std::vector<int> rows(16);
    for (int i = 0; i < 16; ++i) rows[static_cast<std::size_t>(i)] = i / 4;
    CHECK(cart_cross_domain_pairs(dims, {0, 0}, rows) == 12);
    CHECK(cart_cross_domain_pairs(dims, {1, 0}, rows) == 16);
    CHECK(cart_cross_domain_pairs(dims, {0, 1}, rows) == 12);
    CHECK(cart_cross_domain_pairs(dims, {0, 0}, std::vector<int>(16, 7)) == 0);
}

TEST_CASE("reordering: identity where it cannot help") {
    std::vector<int> dims{4, 4};
    std::vector<char> open{0, 0};
    CHECK(cart_reorder(dims, open, std::vector<int>(16, 0)) == identity(16));          // one domain
    CHECK(cart_reorder(dims, open, identity(16)) == identity(16));                     // one member per domain
    CHECK(cart_reorder({4, 3}, open, std::vector<int>(16, 0)) == identity(16));        // grid smaller than comm
    std::vector<int> uneven(16, 0);
    for (int i = 10; i < 16; ++i) uneven[static_cast<std::size_t>(i)] = 1;
    CHECK(cart_reorder(dims, open, uneven) == identity(16));                           // unequal domains
    std::vector<int> halves(16);
    for (int i = 0; i < 16; ++i) halves[static_cast<std::size_t>(i)] = i / 8;
    CHECK(cart_reorder(dims, open, halves) == identity(16));  // rows 0-1 / 2-3 are already compact
    std::vector<int> quarters(16);
    for (int i = 0; i < 16; ++i) quarters[static_cast<std::size_t>(i)] = i / 4;
    CHECK(cart_reorder(dims, {1, 1}, quarters) == identity(16));  // periodic 4x4: 2x2 blocks cut as many pairs as rows
}

TEST_CASE("reordering: compact blocks when they cut fewer neighbour pairs") {
    struct Case {
        std::vector<int> dims;
        std::vector<char> periods;
        int per_domain;
        int cores;  // members m sit on core m % cores (oversubscription), domain = core / per_domain
    };
    std::vector<Case> cases{
        {{4, 4}, {0, 0}, 4, 16},       {{8, 8}, {0, 0}, 8, 64},     {{8, 8}, {1, 1}, 8, 64},
        {{4, 4, 4}, {0, 0, 0}, 8, 64}, {{16}, {0}, 4, 16},          {{6, 4}, {0, 0}, 4, 24},
        {{4, 4}, {0, 0}, 2, 8},        {{12, 8}, {1, 0}, 16, 96},   {{2, 3, 4}, {0, 1, 0}, 6, 24},
    };
    for (const Case& k : cases) {
        const int n = static_cast<int>(product_of(k.dims.data(), static_cast<int>(k.dims.size())));
        std::vector<int> domain(static_cast<std::size_t>(n));
        for (int m = 0; m < n; ++m) domain[static_cast<std::size_t>(m)] = (m % k.cores) / k.per_domain;
        std::vector<int> order = cart_reorder(k.dims, k.periods, domain);
        REQUIRE(is_permutation_of_ranks(order));
        std::int64_t before = cart_cross_domain_pairs(k.dims, k.periods, domain);
        std::int64_t after = cart_cross_domain_pairs(k.dims, k.periods, domains_of_cells(order, domain));
        CHECK(after <= before);
        if (order != identity(n)) CHECK(after < before);
        // Every domain's cells form one box: its extent along each dimension multiplies to its size.
        std::set<int> seen;
        for (int d : domain) seen.insert(d);
        if (order != identity(n))
            for (int d : seen) {
                std::vector<int> lo(k.dims.size(), 1 << 30), hi(k.dims.size(), -1), c(k.dims.size());
                int count = 0;
                for (int m = 0; m < n; ++m) {
                    if (domain[static_cast<std::size_t>(m)] != d) continue;
                    ++count;
                    cart_coords_of(k.dims, order[static_cast<std::size_t>(m)], c.data());
                    for (std::size_t i = 0; i < c.size(); ++i) {
                        lo[i] = std::min(lo[i], c[i]);
                        hi[i] = std::max(hi[i], c[i]);
                    }
                }
                int box = 1;
                for (std::size_t i = 0; i < c.size(); ++i) box *= hi[i] - lo[i] + 1;
                CHECK(box == count);
            }
    }
    // The figures docs/topologies.md quotes.
    auto cost_pair = [](std::vector<int> dims, std::vector<char> periods, int per_domain) {
        int n = static_cast<int>(product_of(dims.data(), static_cast<int>(dims.size())));
        std::vector<int> domain(static_cast<std::size_t>(n));
        for (int m = 0; m < n; ++m) domain[static_cast<std::size_t>(m)] = m / per_domain;
        auto order = cart_reorder(dims, periods, domain);
        return std::pair<std::int64_t, std::int64_t>(cart_cross_domain_pairs(dims, periods, domain),
                                                     cart_cross_domain_pairs(dims, periods, domains_of_cells(order, domain)));
    };
    CHECK(cost_pair({4, 4}, {0, 0}, 4) == std::pair<std::int64_t, std::int64_t>(12, 8));
    CHECK(cost_pair({8, 8}, {0, 0}, 8) == std::pair<std::int64_t, std::int64_t>(56, 32));
    CHECK(cost_pair({8, 8}, {1, 1}, 8) == std::pair<std::int64_t, std::int64_t>(64, 48));
    CHECK(cost_pair({4, 4, 4}, {0, 0, 0}, 8) == std::pair<std::int64_t, std::int64_t>(64, 48));
    CHECK(cost_pair({4, 4}, {1, 1}, 4) == std::pair<std::int64_t, std::int64_t>(16, 16));
    CHECK(cost_pair({4, 4}, {0, 0}, 8) == std::pair<std::int64_t, std::int64_t>(4, 4));
}
