#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/rank.hpp"

using namespace hmpi;

TEST_CASE("buffered-send blocks are aligned, disjoint, reused after release, and bounded") {
    std::vector<unsigned char> mem(4096 + 64);
    BsendBuffer b;
    b.base = mem.data() + 3;  // a misaligned user buffer
    b.size = 4096;
    Request r1, r2, r3, r4;
    void* a = b.allocate(1000, &r1);
    void* c = b.allocate(1000, &r2);
    void* d = b.allocate(1000, &r3);
    REQUIRE(a);
    REQUIRE(c);
    REQUIRE(d);
    CHECK(reinterpret_cast<std::uintptr_t>(a) % 64 == 0);
    CHECK(static_cast<unsigned char*>(c) >= static_cast<unsigned char*>(a) + 1000);
    CHECK(static_cast<unsigned char*>(d) >= static_cast<unsigned char*>(c) + 1000);
    CHECK(static_cast<unsigned char*>(d) + 1000 <= b.base + b.size);
    CHECK(b.allocate(2000, &r4) == nullptr);  // not enough room left
    b.release(&r2);
    void* e = b.allocate(900, &r4);
    CHECK(e == c);  // first fit reuses the hole
    b.release(&r1);
    b.release(&r3);
    b.release(&r4);
    CHECK(b.blocks.empty());
}
