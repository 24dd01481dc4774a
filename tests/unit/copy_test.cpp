// The copy kernels (runtime/primitives/copy.cpp, copy_kernels.hpp) against
// memcpy: every size 0..300 and a few large ones, source and destination
// at every offset 0..63 from a cache line (so heads, bodies and tails of
// the streaming loop all run misaligned), every store kind, on every
// instruction set this CPU supports; bytes around the destination must be
// untouched.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "primitives/copy.hpp"
#include "primitives/reduce.hpp"

using namespace hmpi;

namespace {

constexpr std::size_t kGuard = 64;

// Copies n bytes from src_off to dst_off within 64-byte aligned arenas and
// checks the destination against memcpy's, guards included.
bool copy_matches(prim::Isa isa, StoreKind kind, std::size_t n, std::size_t src_off, std::size_t dst_off,
                  std::vector<unsigned char>& src, std::vector<unsigned char>& dst,
                  std::vector<unsigned char>& want) {
    auto align = [](unsigned char* p) {
        return reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(p) + 63) & ~std::uintptr_t{63});
    };
    unsigned char* s = align(src.data()) + src_off;
    unsigned char* d = align(dst.data()) + kGuard + dst_off;
    unsigned char* w = align(want.data()) + kGuard + dst_off;
    const std::size_t span = n + 2 * kGuard + 64;
    std::memset(align(dst.data()), 0xA5, span);
    std::memset(align(want.data()), 0xA5, span);
    std::memcpy(w, s, n);
    copy_bytes_with(isa, d, s, n, kind);
    return std::memcmp(align(dst.data()), align(want.data()), span) == 0 && std::memcmp(d - kGuard, w - kGuard, n + 2 * kGuard) == 0;
}

}  // namespace

TEST_CASE("copy kernels match memcpy at every size 0..300 and offset") {
    const std::size_t max_n = 1 << 20;
    std::vector<unsigned char> src(max_n + 256), dst(max_n + 4 * kGuard + 256), want(dst.size());
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 131 + (i >> 8) * 7 + 1);
    for (prim::Isa isa : {prim::Isa::portable, prim::Isa::avx2, prim::Isa::avx512}) {
        if (!prim::isa_supported(isa)) continue;
        for (StoreKind kind : {StoreKind::temporal, StoreKind::non_temporal, StoreKind::rewrite}) {
            CAPTURE(prim::isa_name(isa));
            CAPTURE(static_cast<int>(kind));
            int bad = 0;
            for (std::size_t n = 0; n <= 300; ++n)
                for (std::size_t so = 0; so < 64; so += (n < 64 ? 1 : 7))
                    for (std::size_t dof = 0; dof < 64; dof += 3)
                        if (!copy_matches(isa, kind, n, so, dof, src, dst, want) && bad++ < 5)
                            FAIL_CHECK("n=" << n << " src offset " << so << " dst offset " << dof);
            // Sizes where the streaming loop runs many iterations and ends in a tail.
            for (std::size_t n : {511ul, 512ul, 1023ul, 1024ul, 1025ul, 4097ul, 65536ul + 33, max_n})
                for (std::size_t so : {0ul, 1ul, 33ul, 63ul})
                    for (std::size_t dof : {0ul, 5ul, 32ul, 63ul})
                        if (!copy_matches(isa, kind, n, so, dof, src, dst, want) && bad++ < 5)
                            FAIL_CHECK("n=" << n << " src offset " << so << " dst offset " << dof);
            CHECK(bad == 0);
        }
    }
}

TEST_CASE("copy_bytes uses the active kernel and fences") {
    std::vector<unsigned char> a(100000), b(100000);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<unsigned char>(i * 7);
    copy_bytes(b.data() + 3, a.data() + 1, a.size() - 8, StoreKind::non_temporal);
    CHECK(std::memcmp(b.data() + 3, a.data() + 1, a.size() - 8) == 0);
    copy_bytes(b.data(), a.data(), 0, StoreKind::non_temporal);
    store_fence();
}
