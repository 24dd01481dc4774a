// Ranks and the job.
//
// A Rank is one MPI process's worth of state: its incoming channels, its
// matching queues, its requests, its view of the predefined communicators.
// Code finds the calling rank through current_rank(), a per-thread pointer
// that the rank's thread sets when it starts (and that a fiber switch will
// set when ranks become fibers): never by OS thread identity.
#pragma once
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/park.hpp"
#include "base/spinlock.hpp"
#include "core/channel.hpp"
#include "core/comm.hpp"
#include "core/request.hpp"

namespace hmpi {

enum class RankPhase : int { not_started, running, initialized, finalized, exited };

// Intrusive FIFO of posted receives.
struct RequestQueue {
    Request* head = nullptr;
    Request* tail = nullptr;
    void push_back(Request* r) noexcept;
    void remove(Request* r) noexcept;
};

// Intrusive FIFO of arrived, unmatched messages.
struct MessageQueue {
    Message* head = nullptr;
    Message* tail = nullptr;
    void push_back(Message* m) noexcept;
    void remove(Message* m) noexcept;
};

// The buffer given by MPI_Buffer_attach, carved first-fit into blocks for
// buffered sends in flight.
struct BsendBuffer {
    unsigned char* base = nullptr;
    std::size_t size = 0;
    struct Block {
        std::size_t offset, length;
        Request* request;  // the internal send using the block
    };
    std::vector<Block> blocks;  // sorted by offset
    void* allocate(std::size_t bytes, Request* owner);
    void release(Request* owner) noexcept;
};

struct Rank {
    int world_rank = 0;

    // Rung whenever something this rank may be waiting for happens.
    Doorbell doorbell;

    // Incoming channels by source world rank, installed by senders on first use.
    std::unique_ptr<std::atomic<Channel*>[]> incoming;
    alignas(kFalseSharingRange) std::atomic<std::uint32_t> incoming_installed{0};

    // ---- Owner-only state (under `lock` when the rank is multithreaded).
    alignas(kFalseSharingRange) SpinLock lock;
    bool multithreaded = false;          // the rank asked for MPI_THREAD_MULTIPLE
    std::vector<Channel*> polled;        // channels drained by progress
    std::uint32_t polled_installed = 0;  // incoming_installed when `polled` was built
    RequestQueue posted;
    MessageQueue unexpected;
    std::vector<Request*> detached;      // freed by the user while active, or internal
    // Active RequestKind::async requests, advanced by progress() (under async_lock).
    std::vector<Request*> async_active;
    SpinLock async_lock;
    // async_active.size(), readable without the lock (progress's quick test).
    std::atomic<std::uint32_t> async_count{0};
    // Bumped (under async_lock) whenever an async operation completes or
    // gets past one of its waits (AsyncOp::advances): a waiting thread
    // restarts its spin, yield and park clock on a change, so a long
    // nonblocking collective does not park at every wait once it has run
    // for HMPI_SPIN_US.
    std::atomic<std::uint32_t> async_advances{0};
    BsendBuffer bsend;

    // ---- Lifecycle and introspection (read by the timeout dump and crash handler).
    std::atomic<RankPhase> phase{RankPhase::not_started};
    std::atomic<const char*> current_call{nullptr};
    // What a blocking call waits for (peer and tag), for the timeout dump.
    std::atomic<int> call_peer{kNoPeer};
    std::atomic<int> call_tag{0};
    static constexpr int kNoPeer = -1000;
    int exit_status = 0;
    int thread_level = MPI_THREAD_SINGLE;
    bool was_initialized = false;  // MPI_Initialized stays true after MPI_Finalize
    std::atomic<bool> was_finalized{false};

    // The rank's handles of the predefined communicators.
    Comm world;
    Comm self;
    CommShared self_shared;
};

struct Job {
    int nranks = 1;
    std::vector<std::unique_ptr<Rank>> ranks;
    CommShared world_shared;
    std::size_t ring_cells = 256;
    std::size_t inline_max = 4096;
    std::size_t split_copy_min = 64 << 10;
    std::size_t split_copy_chunk = 128 << 10;
    std::uint64_t spin_ns = 50000, yield_ns = 200000;
    // More ranks than CPUs (Config::oversubscribed): idle_poll yields.
    bool oversubscribed = false;
    std::uint64_t start_ns = 0;
    // Context ids not yet taken: each communicator takes two (point-to-point
    // and collective); WORLD has 0 and 1, SELF 2 and 3.
    std::atomic<std::uint32_t> next_context{4};
};

// The job of this process (valid once hmpi_start has set it up).
Job& job() noexcept;
Job* job_if_started() noexcept;
void install_job(Job* j) noexcept;

namespace rank_detail {
// initial-exec: read on every MPI call and by signal handlers; a fiber switch will write it.
extern thread_local Rank* current __attribute__((tls_model("initial-exec")));
}  // namespace rank_detail

// The rank the calling thread (or, later, fiber) is acting for; nullptr in
// threads that are not ranks.
inline Rank* current_rank() noexcept { return rank_detail::current; }
void set_current_rank(Rank* r) noexcept;
// Whether the caller is the rank's main thread (the one that entered main).
bool is_rank_main_thread() noexcept;
void set_rank_main_thread(bool v) noexcept;

// Sets the current MPI call name for the duration of an API function, so a
// timeout dump or a crash report can say where each rank is.
class CallScope {
public:
    CallScope(Rank* r, const char* name) noexcept : rank_(r) {
        if (rank_) {
            prev_ = rank_->current_call.load(std::memory_order_relaxed);
            rank_->current_call.store(name, std::memory_order_relaxed);
        }
    }
    CallScope(const CallScope&) = delete;
    CallScope& operator=(const CallScope&) = delete;

    // Records the peer and tag a blocking call is about to wait for.
    void waiting_for(int peer, int tag) noexcept {
        if (!rank_) return;
        rank_->call_peer.store(peer, std::memory_order_relaxed);
        rank_->call_tag.store(tag, std::memory_order_relaxed);
        recorded_ = true;
    }
    ~CallScope() {
        if (rank_ && recorded_) rank_->call_peer.store(Rank::kNoPeer, std::memory_order_relaxed);
        if (rank_) rank_->current_call.store(prev_, std::memory_order_relaxed);
    }

private:
    Rank* rank_;
    const char* prev_ = nullptr;
    bool recorded_ = false;
};

}  // namespace hmpi
