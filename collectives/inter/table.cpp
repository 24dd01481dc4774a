// The intercommunicator algorithms of every collective MPI 3.1 defines on
// intercommunicators (5.2.2), tried before the intracommunicator ones
// (registry.cpp); each applies to intercommunicators only. Scan, exscan and
// the neighbourhood collectives have none (MPI defines them on
// intracommunicators only; the API layer refuses an intercommunicator).
#include "collectives/framework/tables.hpp"
#include "collectives/inter/inter.hpp"

namespace hmpi::coll {

namespace {
const CollAlgorithm kBarrier[] = {
    {"inter_leaders", "local barrier, leaders exchange, local barrier", inter_only, inter_barrier,
     inter_barrier_cost}};
const CollAlgorithm kBcast[] = {
    {"inter_leaders", "root sends to remote rank 0, which broadcasts in its group", inter_only, inter_bcast,
     inter_bcast_cost}};
const CollAlgorithm kGather[] = {
    {"inter_direct", "every remote member sends straight to the root (MPI 3.1 5.5)", inter_only, inter_gather,
     inter_gather_cost}};
const CollAlgorithm kScatter[] = {
    {"inter_direct", "the root sends each remote member its block (MPI 3.1 5.6)", inter_only, inter_scatter,
     inter_scatter_cost}};
const CollAlgorithm kAllgather[] = {
    {"inter_direct", "one message per pair of members across the groups (MPI 3.1 5.7)", inter_only, inter_allgather,
     inter_allgather_cost}};
const CollAlgorithm kAlltoall[] = {
    {"inter_direct", "one message per pair of members across the groups (MPI 3.1 5.8)", inter_only, inter_alltoall,
     inter_alltoall_cost}};
const CollAlgorithm kReduce[] = {
    {"inter_leaders", "local reduce to rank 0 of the sending group, which sends to the root", inter_only, inter_reduce,
     inter_reduce_cost}};
const CollAlgorithm kAllreduce[] = {
    {"inter_leaders", "local reduce, leaders exchange, local broadcast", inter_only, inter_allreduce,
     inter_allreduce_cost}};
const CollAlgorithm kReduceScatter[] = {
    {"inter_leaders", "local reduce, the leader scatters to the other group", inter_only, inter_reduce_scatter,
     inter_reduce_scatter_cost}};
}  // namespace

std::span<const CollAlgorithm> inter_algorithms(CollKind k) {
    switch (k) {
        case CollKind::barrier: return kBarrier;
        case CollKind::bcast: return kBcast;
        case CollKind::gather:
        case CollKind::gatherv: return kGather;
        case CollKind::scatter:
        case CollKind::scatterv: return kScatter;
        case CollKind::allgather:
        case CollKind::allgatherv: return kAllgather;
        case CollKind::alltoall:
        case CollKind::alltoallv:
        case CollKind::alltoallw: return kAlltoall;
        case CollKind::reduce: return kReduce;
        case CollKind::allreduce: return kAllreduce;
        case CollKind::reduce_scatter:
        case CollKind::reduce_scatter_block: return kReduceScatter;
        default: return {};  // scan, exscan, neighbourhood collectives
    }
}

}  // namespace hmpi::coll
