// The registries' tables, one function per collective, each defined next
// to its algorithms (collectives/<collective>/table.cpp). Intercommunicator
// algorithms of every collective come from collectives/inter/table.cpp and
// are tried before the intracommunicator ones (they apply to
// intercommunicators only, and those apply to intracommunicators only).
#pragma once
#include <span>

#include "collectives/framework/registry.hpp"

namespace hmpi::coll {

std::span<const CollAlgorithm> barrier_algorithms();
std::span<const CollAlgorithm> bcast_algorithms();
std::span<const CollAlgorithm> gather_algorithms();
std::span<const CollAlgorithm> gatherv_algorithms();
std::span<const CollAlgorithm> scatter_algorithms();
std::span<const CollAlgorithm> scatterv_algorithms();
std::span<const CollAlgorithm> allgather_algorithms();
std::span<const CollAlgorithm> allgatherv_algorithms();
std::span<const CollAlgorithm> alltoall_algorithms();
std::span<const CollAlgorithm> alltoallv_algorithms();
std::span<const CollAlgorithm> alltoallw_algorithms();
std::span<const CollAlgorithm> reduce_algorithms();
std::span<const CollAlgorithm> allreduce_algorithms();
std::span<const CollAlgorithm> reduce_scatter_algorithms();
std::span<const CollAlgorithm> reduce_scatter_block_algorithms();
std::span<const CollAlgorithm> scan_algorithms();
std::span<const CollAlgorithm> exscan_algorithms();
std::span<const CollAlgorithm> neighbor_allgather_algorithms();
std::span<const CollAlgorithm> neighbor_allgatherv_algorithms();
std::span<const CollAlgorithm> neighbor_alltoall_algorithms();
std::span<const CollAlgorithm> neighbor_alltoallv_algorithms();
std::span<const CollAlgorithm> neighbor_alltoallw_algorithms();
// Intercommunicator algorithms of collective k (empty where MPI defines none).
std::span<const CollAlgorithm> inter_algorithms(CollKind k);

}  // namespace hmpi::coll
