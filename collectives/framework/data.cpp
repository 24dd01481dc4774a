// Moving typed data inside collectives.
#include "collectives/framework/data.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>

#include "collectives/model/params.hpp"

namespace hmpi::coll {

int copy_data(const void* src, std::int64_t scount, const Datatype& stype, void* dst, std::int64_t rcount,
              const Datatype& rtype) noexcept {
    const std::size_t have = data_bytes(scount, stype);
    const std::size_t room = data_bytes(rcount, rtype);
    const std::size_t n = std::min(have, room);
    // Contiguous on both sides (nearly every call): the copy without
    // copy_typed's dispatch, a third of a small call's copy instructions.
    if (n && stype.contiguous && rtype.contiguous) std::memcpy(dst, src, n);
    else if (n) copy_typed(src, stype, dst, rtype, n);
    return have > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

int copy_data(const void* src, std::int64_t scount, const Datatype& stype, void* dst, std::int64_t rcount,
              const Datatype& rtype, StoreKind kind) noexcept {
    if (kind == StoreKind::temporal || !stype.contiguous || !rtype.contiguous)
        return copy_data(src, scount, stype, dst, rcount, rtype);
    const std::size_t have = data_bytes(scount, stype);
    const std::size_t room = data_bytes(rcount, rtype);
    const std::size_t n = std::min(have, room);
    if (n) copy_bytes(dst, src, n, kind);
    return have > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

StoreKind store_kind_for(std::size_t working_set, const CommTopology& topo, bool dst_reused) noexcept {
    // The caches as measured where the profile has core_cache_bytes (a
    // hypervisor may report far more than a core gets).
    const std::size_t cache = topo.cache_bytes_with(model_params().core_cache_bytes);
    if (dst_reused || cache == 0) return StoreKind::temporal;
    return working_set > cache ? StoreKind::non_temporal : StoreKind::temporal;
}

StoreKind result_store_kind_for(std::size_t working_set, const CommTopology& topo, bool held, bool in_place) noexcept {
    if (!in_place && model_params().nt_copy_applies(working_set, topo.p)) return StoreKind::non_temporal;
    return held ? held_store_kind_for(working_set, topo, false) : store_kind_for(working_set, topo, false);
}

StoreKind held_store_kind_for(std::size_t working_set, const CommTopology& topo, bool dst_reused) noexcept {
    const StoreKind kind = store_kind_for(working_set, topo, dst_reused);
    return kind == StoreKind::temporal ? StoreKind::rewrite : kind;
}

TypedScratch::TypedScratch(std::int64_t count, const Datatype& t) {
    if (count <= 0) return;
    // Element i's data lies in [i*extent + true_lb, i*extent + true_ub).
    const std::ptrdiff_t first = std::min<std::ptrdiff_t>(0, (count - 1) * t.extent) + t.true_lb;
    const std::ptrdiff_t last = std::max<std::ptrdiff_t>(0, (count - 1) * t.extent) + t.true_ub;
    const std::size_t bytes = static_cast<std::size_t>(std::max<std::ptrdiff_t>(last - first, 1));
    storage_.reset(new unsigned char[bytes + 64]);
    // Align the data for the reduction kernels.
    auto base = reinterpret_cast<std::uintptr_t>(storage_.get());
    base = (base + 63) & ~std::uintptr_t(63);
    origin_ = reinterpret_cast<unsigned char*>(base) - first;
}

}  // namespace hmpi::coll
