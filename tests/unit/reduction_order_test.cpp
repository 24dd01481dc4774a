// The order in which the reducing collectives fold their inputs
// (collectives/reduce/reduction.hpp): rank order for any op, and the
// staggered order (each rank from its own input on) that a commutative op
// may take, with the same result either way and the in-place operand
// never read as an input.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "collectives/reduce/reduction.hpp"
#include "core/datatype.hpp"
#include "core/op.hpp"

using namespace hmpi;
using namespace hmpi::coll;

namespace {

// An associative, non-commutative op on ints: a op b = a (the left
// operand), so x_0 op ... op x_{p-1} = x_0, and any other order shows.
void left_operand(void* in, void* inout, int* len, MPI_Datatype*) {
    auto* a = static_cast<const int*>(in);
    auto* b = static_cast<int*>(inout);
    for (int i = 0; i < *len; ++i) b[i] = a[i];
}

struct Inputs {
    const Datatype* type;
    std::vector<std::vector<int>> data;
    std::vector<int> visited;

    Inputs(int p, int n) : type(datatype_from_handle(MPI_INT)) {
        for (int r = 0; r < p; ++r) data.emplace_back(static_cast<std::size_t>(n), r + 1);
    }
    auto operand() {
        return [this](int i) {
            visited.push_back(i);
            return Operand{data[static_cast<std::size_t>(i)].data(), type};
        };
    }
};

}  // namespace

TEST_CASE("a commutative op folds from the given start on; the result is the rank-order one") {
    const Op& sum = *op_from_handle(MPI_SUM);
    const int p = 6, n = 5;
    for (int start = 0; start < p; ++start) {
        INFO("start ", start);
        Inputs in(p, n);
        std::vector<int> dst(n, -1);
        reduce_staggered(sum, *in.type, n, 0, p, in.operand(), dst.data(), *in.type, -1, start);
        std::vector<int> order;
        for (int k = 0; k < p; ++k) order.push_back((start + k) % p);
        CHECK(in.visited == order);
        for (int v : dst) CHECK(v == p * (p + 1) / 2);
    }
    // In place: the alias is dst itself, never read as an input.
    Inputs in(p, n);
    const int alias = 2;
    reduce_staggered(sum, *in.type, n, 0, p, in.operand(), in.data[alias].data(), *in.type, alias, 4);
    CHECK(in.visited == std::vector<int>{4, 5, 0, 1, 3});
    for (int v : in.data[alias]) CHECK(v == p * (p + 1) / 2);
    // One operand: a copy.
    Inputs one(1, n);
    std::vector<int> dst(n, 0);
    reduce_staggered(sum, *one.type, n, 0, 1, one.operand(), dst.data(), *one.type, -1, 0);
    for (int v : dst) CHECK(v == 1);
}

TEST_CASE("a non-commutative op keeps rank order whatever the start") {
    const Op* left = op_create(left_operand, false);
    const int p = 4, n = 3;
    Inputs staggered(p, n), ordered(p, n);
    std::vector<int> a(n), b(n);
    reduce_staggered(*left, *staggered.type, n, 0, p, staggered.operand(), a.data(), *staggered.type, -1, 2);
    reduce_in_order(*left, *ordered.type, n, 0, p, ordered.operand(), b.data(), *ordered.type, -1);
    CHECK(staggered.visited == ordered.visited);
    CHECK(a == b);
    for (int v : a) CHECK(v == 1);  // x_0
    op_release(left);
}

// The folds that reach peers' buffers through their arguments sweep their
// operands first where there are 3 to kSweptOperands of them
// (reduction.hpp, SweptOperands) and take them one at a time as they fold
// otherwise: every form keeps the fold's order and its result.
TEST_CASE("swept folds take their operands in the fold's order, swept first or one at a time") {
    const Op& sum = *op_from_handle(MPI_SUM);
    const Op* left = op_create(left_operand, false);
    const int n = 3;
    for (int p : {2, 3, kSweptOperands, kSweptOperands + 6}) {
        INFO(p, " operands");
        Inputs in(p, n);
        std::vector<int> dst(n, -1);
        const int start = 5 % p;
        reduce_staggered_swept(sum, *in.type, n, 0, p, in.operand(), dst.data(), *in.type, -1, start);
        std::vector<int> order;
        for (int k = 0; k < p; ++k) order.push_back((start + k) % p);
        CHECK(in.visited == order);
        for (int v : dst) CHECK(v == p * (p + 1) / 2);
        // A non-commutative op: rank order, with the in-place operand in
        // the middle, never read as an input.
        Inputs ordered(p, n), plain(p, n);
        const int alias = p / 2;
        reduce_staggered_swept(*left, *ordered.type, n, 0, p, ordered.operand(), ordered.data[alias].data(),
                               *ordered.type, alias, start);
        reduce_in_order(*left, *plain.type, n, 0, p, plain.operand(), plain.data[alias].data(), *plain.type, alias);
        CHECK(std::count(ordered.visited.begin(), ordered.visited.end(), alias) == 0);
        CHECK(static_cast<int>(ordered.visited.size()) == p - 1);
        for (int v : ordered.data[alias]) CHECK(v == 1);  // x_0
        // Swept or not, the same operands in the same order as the plain fold.
        std::sort(ordered.visited.begin(), ordered.visited.end());
        std::sort(plain.visited.begin(), plain.visited.end());
        CHECK(ordered.visited == plain.visited);
    }
    op_release(left);
}
