#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "core/datatype.hpp"

using namespace hmpi;

namespace {
struct DoubleInt {
    double d;
    int i;
};
}  // namespace

TEST_CASE("predefined types have the sizes and extents the standard implies") {
    CHECK(datatype_from_handle(MPI_INT)->size == sizeof(int));
    CHECK(datatype_from_handle(MPI_DOUBLE)->size == sizeof(double));
    CHECK(datatype_from_handle(MPI_DATATYPE_NULL) == nullptr);
    const Datatype* di = datatype_from_handle(MPI_DOUBLE_INT);
    REQUIRE(di);
    CHECK(di->size == sizeof(double) + sizeof(int));
    CHECK(di->extent == static_cast<std::ptrdiff_t>(sizeof(DoubleInt)));
    CHECK_FALSE(di->contiguous);
    CHECK(datatype_from_handle(MPI_2INT)->basic_sizes.size() == 2);
}

TEST_CASE("packing a gapped type skips the gaps and unpacking leaves them untouched") {
    const Datatype& t = *datatype_from_handle(MPI_DOUBLE_INT);
    std::vector<DoubleInt> src(5);
    for (int k = 0; k < 5; ++k) src[static_cast<std::size_t>(k)] = {k * 1.5, k * 7};
    std::vector<unsigned char> packed(5 * t.size);
    pack_bytes(src.data(), t, packed.size(), packed.data());
    std::vector<DoubleInt> dst(5);
    std::memset(static_cast<void*>(dst.data()), 0xAB, sizeof(DoubleInt) * 5);
    unpack_bytes(packed.data(), packed.size(), dst.data(), t);
    for (int k = 0; k < 5; ++k) {
        CHECK(dst[static_cast<std::size_t>(k)].d == k * 1.5);
        CHECK(dst[static_cast<std::size_t>(k)].i == k * 7);
        // The padding after the int keeps its old bytes.
        auto* pad = reinterpret_cast<unsigned char*>(&dst[static_cast<std::size_t>(k)]) + sizeof(double) + sizeof(int);
        CHECK(*pad == 0xAB);
    }
}

TEST_CASE("copy_typed between gapped and contiguous layouts, including partial elements") {
    const Datatype& di = *datatype_from_handle(MPI_DOUBLE_INT);
    const Datatype& bytes = *datatype_from_handle(MPI_BYTE);
    std::vector<DoubleInt> src(3000);  // larger than the bounce buffer
    for (std::size_t k = 0; k < src.size(); ++k) src[k] = {static_cast<double>(k), static_cast<int>(k * 3)};
    std::vector<DoubleInt> dst(3000);
    copy_typed(src.data(), di, dst.data(), di, 3000 * di.size);
    int bad = 0;
    for (std::size_t k = 0; k < dst.size(); ++k) bad += dst[k].d != static_cast<double>(k) || dst[k].i != static_cast<int>(k * 3);
    CHECK(bad == 0);
    std::vector<unsigned char> flat(di.size * 2 + 8);
    copy_typed(src.data(), di, flat.data(), bytes, flat.size());  // 2 elements and a partial third
    double third;
    std::memcpy(&third, flat.data() + 2 * di.size, 8);
    CHECK(third == 2.0);
}
