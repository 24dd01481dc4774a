// Init, Finalize, Abort, thread levels, clocks, version and names.
#include <climits>
#include <cstdio>
#include <cstring>

#include "api/api.hpp"
#include "base/park.hpp"
#include "base/topology.hpp"
#include "core/job.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace {

int initialize(const Call& c, int required, int* provided) {
    Rank* r = c.rank();
    if (!r) return raise(nullptr, nullptr, c.name(), MPI_ERR_OTHER, "MPI is initialized from a thread that is not an MPI rank");
    RankPhase p = r->phase.load(std::memory_order_relaxed);
    if (p == RankPhase::initialized) return c.fail(nullptr, MPI_ERR_OTHER, "MPI is already initialized on this rank");
    if (p == RankPhase::finalized) return c.fail(nullptr, MPI_ERR_OTHER, "MPI cannot be initialized again after MPI_Finalize");
    // Every level is provided as asked; MPI_THREAD_MULTIPLE turns on the
    // rank's locks, the lower levels keep the lock-free paths.
    int level = required;
    if (level != MPI_THREAD_SINGLE && level != MPI_THREAD_FUNNELED && level != MPI_THREAD_SERIALIZED)
        level = MPI_THREAD_MULTIPLE;
    r->thread_level = level;
    r->multithreaded = level == MPI_THREAD_MULTIPLE;
    if (provided) *provided = level;
    r->was_initialized = true;
    r->phase.store(RankPhase::initialized, std::memory_order_release);
    return MPI_SUCCESS;
}

}  // namespace

HMPI_API(int, Init, (int *argc, char ***argv)) {
    (void)argc;
    (void)argv;
    Call c("MPI_Init");
    return initialize(c, MPI_THREAD_SINGLE, nullptr);
}

HMPI_API(int, Init_thread, (int *argc, char ***argv, int required, int *provided)) {
    (void)argc;
    (void)argv;
    Call c("MPI_Init_thread");
    if (!provided) return raise(c.rank(), nullptr, c.name(), MPI_ERR_ARG, "argument provided is NULL");
    return initialize(c, required, provided);
}

HMPI_API(int, Finalize, (void)) {
    Call c("MPI_Finalize");
    if (int e = c.require_initialized()) return e;
    Rank& self = *c.rank();
    // Buffered and freed-but-active sends must still reach their receivers.
    wait_until(self, [&] { return detached_sends_idle(self); });
    // MPI_COMM_SELF's attributes are deleted first, last set first: the
    // standard's hook for libraries to clean up at finalize (MPI 3.1, 8.7.1).
    if (int e = self.self.attrs.delete_all(static_cast<void*>(MPI_COMM_SELF)))
        return c.fail(&self.self, e, "a delete callback of an MPI_COMM_SELF attribute failed");
    self.was_finalized.store(true, std::memory_order_relaxed);
    self.phase.store(RankPhase::finalized, std::memory_order_release);
    return MPI_SUCCESS;
}

HMPI_API(int, Initialized, (int *flag)) {
    if (!flag) return MPI_ERR_ARG;
    Rank* r = current_rank();
    *flag = r && r->was_initialized;
    return MPI_SUCCESS;
}

HMPI_API(int, Finalized, (int *flag)) {
    if (!flag) return MPI_ERR_ARG;
    Rank* r = current_rank();
    *flag = r && r->was_finalized.load(std::memory_order_relaxed);
    return MPI_SUCCESS;
}

HMPI_API(int, Query_thread, (int *provided)) {
    Call c("MPI_Query_thread");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "provided", provided)) return e;
    *provided = c.rank()->thread_level;
    return MPI_SUCCESS;
}

HMPI_API(int, Is_thread_main, (int *flag)) {
    Call c("MPI_Is_thread_main");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "flag", flag)) return e;
    *flag = is_rank_main_thread();
    return MPI_SUCCESS;
}

HMPI_API(int, Abort, (MPI_Comm comm, int errorcode)) {
    Call c("MPI_Abort");
    Rank* r = c.rank();
    const Comm* cm = comm_from_handle(comm);
    char line[256];
    std::snprintf(line, sizeof line, "rank %d called MPI_Abort(%s, %d)", r ? r->world_rank : -1,
                  cm ? comm_name(cm) : "an invalid communicator", errorcode);
    // Every rank of the job shares the process: aborting any communicator ends them all.
    end_job(errorcode, line);
}

HMPI_API(double, Wtime, (void)) {
    // One clock for every rank of the node: MPI_WTIME_IS_GLOBAL holds.
    Job* j = job_if_started();
    std::uint64_t t = now_ns() - (j ? j->start_ns : 0);
    return static_cast<double>(t) * 1e-9;
}

HMPI_API(double, Wtick, (void)) { return 1e-9; }

HMPI_API(int, Get_processor_name, (char *name, int *resultlen)) {
    Call c("MPI_Get_processor_name");
    if (int e = c.not_null(nullptr, "name", name)) return e;
    if (int e = c.not_null(nullptr, "resultlen", resultlen)) return e;
    std::string host = host_name();
    int n = std::snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", host.c_str());
    *resultlen = n < MPI_MAX_PROCESSOR_NAME ? n : MPI_MAX_PROCESSOR_NAME - 1;
    return MPI_SUCCESS;
}

HMPI_API(int, Get_version, (int *version, int *subversion)) {
    if (!version || !subversion) return MPI_ERR_ARG;
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

HMPI_API(int, Get_library_version, (char *version, int *resultlen)) {
    if (!version || !resultlen) return MPI_ERR_ARG;
    int n = std::snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                          "HMPI %s: ranks as threads, MPI %d.%d semantics, MPI 5.0 ABI handles",
                          HMPI_VERSION_STRING, MPI_VERSION, MPI_SUBVERSION);
    *resultlen = n;
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_size, (MPI_Comm comm, int *size)) {
    Call c("MPI_Comm_size");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = c.comm(comm, &cm)) return e;
    if (int e = c.not_null(cm, "size", size)) return e;
    *size = cm->size();
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_rank, (MPI_Comm comm, int *rank)) {
    Call c("MPI_Comm_rank");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = c.comm(comm, &cm)) return e;
    if (int e = c.not_null(cm, "rank", rank)) return e;
    *rank = cm->rank;
    return MPI_SUCCESS;
}

HMPI_API(int, Type_size, (MPI_Datatype datatype, int *size)) {
    Call c("MPI_Type_size");
    if (int e = c.require_initialized()) return e;
    const Datatype* t;
    if (int e = c.type(nullptr, "datatype", datatype, &t, /*need_committed=*/false)) return e;
    if (int e = c.not_null(nullptr, "size", size)) return e;
    // A size an int cannot hold is MPI_UNDEFINED (MPI 3.1, 4.1.5); MPI_Type_size_x gives it.
    *size = t->size <= static_cast<std::size_t>(INT_MAX) ? static_cast<int>(t->size) : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

// Entry point of the startup stub (runtime/start/hmpi_main.c).
extern "C" __attribute__((visibility("default"))) int hmpi_start(int argc, char** argv, char** envp,
                                                                 int (*user_main)(int, char**, char**)) {
    return start_job(argc, argv, envp, user_main);
}
