#include "core/job.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "base/config.hpp"
#include "base/log.hpp"
#include "base/park.hpp"
#include "base/topology.hpp"
#include "core/rank.hpp"

namespace hmpi {

namespace {

struct RankStart {
    Rank* rank;
    int argc;
    char** argv;
    char** envp;
    UserMain user_main;
};

const char* signal_name(int sig) noexcept {
    switch (sig) {
        case SIGSEGV: return "Segmentation fault";
        case SIGBUS: return "Bus error";
        case SIGFPE: return "Floating point exception";
        case SIGILL: return "Illegal instruction";
        case SIGABRT: return "Aborted";
        default: return "signal";
    }
}

void crash_handler(int sig) {
    static std::atomic<bool> reported{false};
    if (!reported.exchange(true)) {
        Rank* r = current_rank();
        SignalSafeLine line;
        if (r) line.str("rank ").num(r->world_rank);
        else line.str("a thread that is not a rank");
        line.str(" terminated by signal ").num(sig).str(" (").str(signal_name(sig)).str(")");
        if (r) {
            const char* call = r->current_call.load(std::memory_order_relaxed);
            if (call) line.str(" in ").str(call);
            else line.str(" outside MPI calls");
        }
        report_event_raw(line.buf, line.len);
    }
    // Die of the same signal so the launcher sees it.
    signal(sig, SIG_DFL);
    raise(sig);
}

// hmpirun sends this when its timeout expires: say where every rank is.
void dump_handler(int) {
    Job* j = job_if_started();
    if (j) {
        for (int i = 0; i < j->nranks; ++i) {
            const Rank& r = *j->ranks[static_cast<std::size_t>(i)];
            SignalSafeLine line;
            line.str("rank ").num(i).str(": ");
            RankPhase phase = r.phase.load(std::memory_order_relaxed);
            const char* call = r.current_call.load(std::memory_order_relaxed);
            if (phase == RankPhase::not_started) line.str("not started");
            else if (phase == RankPhase::exited) line.str("returned from main with status ").num(r.exit_status);
            else if (call) {
                line.str("blocked in ").str(call);
                int peer = r.call_peer.load(std::memory_order_relaxed);
                if (peer != Rank::kNoPeer) {
                    int tag = r.call_tag.load(std::memory_order_relaxed);
                    line.str(" (peer ");
                    if (peer == MPI_ANY_SOURCE) line.str("MPI_ANY_SOURCE");
                    else line.num(peer);
                    line.str(", tag ");
                    if (tag == MPI_ANY_TAG) line.str("MPI_ANY_TAG");
                    else line.num(tag);
                    line.str(")");
                }
            }
            else line.str("running outside MPI calls");
            report_event_raw(line.buf, line.len);
        }
    }
    signal(SIGKILL, SIG_DFL);
    raise(SIGKILL);
}

void install_signal_handlers() {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = crash_handler;
    sa.sa_flags = SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
    struct sigaction dump;
    std::memset(&dump, 0, sizeof dump);
    dump.sa_handler = dump_handler;
    sigemptyset(&dump.sa_mask);
    sigaction(SIGRTMIN + 1, &dump, nullptr);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizerOwnsAltStack = true;  // the sanitizer installs and frees its own
#else
constexpr bool kSanitizerOwnsAltStack = false;
#endif

// A stack overflow must still be reported: each rank thread gets a signal
// stack for the crash handler, released when the rank ends.
class AltStack {
public:
    AltStack() {
        if (kSanitizerOwnsAltStack) return;
        mem_ = std::malloc(kSize);
        if (!mem_) return;
        stack_t ss{};
        ss.ss_sp = mem_;
        ss.ss_size = kSize;
        if (sigaltstack(&ss, nullptr) != 0) {
            std::free(mem_);
            mem_ = nullptr;
        }
    }
    ~AltStack() {
        if (!mem_) return;
        stack_t ss{};
        ss.ss_flags = SS_DISABLE;
        sigaltstack(&ss, nullptr);
        std::free(mem_);
    }
    AltStack(const AltStack&) = delete;
    AltStack& operator=(const AltStack&) = delete;

private:
    static constexpr std::size_t kSize = 64 << 10;
    void* mem_ = nullptr;
};

// Each rank gets its own copy of argv, as separate processes would.
std::vector<char*> copy_argv(int argc, char** argv) {
    std::vector<char*> v;
    v.reserve(static_cast<std::size_t>(argc) + 1);
    for (int i = 0; i < argc; ++i) v.push_back(strdup(argv[i]));
    v.push_back(nullptr);
    return v;
}

void run_rank(RankStart& s) {
    Rank& r = *s.rank;
    set_current_rank(&r);
    set_rank_main_thread(true);
    if (config().bind == BindPolicy::core) bind_current_thread_to_core(r.world_rank);
    AltStack alt_stack;
    std::vector<char*> argv = copy_argv(s.argc, s.argv);
    r.phase.store(RankPhase::running, std::memory_order_release);
    int status = s.user_main(s.argc, argv.data(), s.envp);
    if (r.phase.load(std::memory_order_acquire) == RankPhase::initialized) {
        // The others may wait for this rank forever: end the job.
        char line[160];
        std::snprintf(line, sizeof line, "rank %d returned from main without calling MPI_Finalize", r.world_rank);
        end_job(status ? status : 1, line);
    }
    r.exit_status = status;
    r.phase.store(RankPhase::exited, std::memory_order_release);
    // argv strings are the rank's own: the program may have kept pointers
    // into them until now, so they are released only here.
    for (char* p : argv) std::free(p);
}

void* rank_thread(void* arg) {
    run_rank(*static_cast<RankStart*>(arg));
    return nullptr;
}

std::unique_ptr<Job> build_job(const Config& cfg) {
    auto j = std::make_unique<Job>();
    j->nranks = cfg.nranks;
    j->ring_cells = cfg.ring_cells;
    j->inline_max = cfg.inline_max;
    j->split_copy_min = cfg.split_copy_min;
    j->split_copy_chunk = cfg.split_copy_chunk;
    j->spin_ns = static_cast<std::uint64_t>(cfg.spin_us * 1000);
    j->yield_ns = static_cast<std::uint64_t>(cfg.yield_us * 1000);
    j->oversubscribed = cfg.oversubscribed;
    j->start_ns = now_ns();
    // Context ids: each communicator takes two (point-to-point, collectives).
    j->world_shared.context_id = 0;
    j->world_shared.size = cfg.nranks;
    for (int i = 0; i < cfg.nranks; ++i) j->world_shared.world_rank_of.push_back(i);
    for (int i = 0; i < cfg.nranks; ++i) {
        auto r = std::make_unique<Rank>();
        r->world_rank = i;
        r->incoming = std::make_unique<std::atomic<Channel*>[]>(static_cast<std::size_t>(cfg.nranks));
        for (int k = 0; k < cfg.nranks; ++k) r->incoming[static_cast<std::size_t>(k)].store(nullptr, std::memory_order_relaxed);
        // The predefined communicators' shared parts live in the job and the
        // rank: their shared_ptrs own nothing (aliasing, empty control block).
        r->world.shared = std::shared_ptr<const CommShared>(std::shared_ptr<const CommShared>(), &j->world_shared);
        r->world.rank = i;
        r->world.set_name("MPI_COMM_WORLD");
        r->world.handle = MPI_COMM_WORLD;
        r->world.predefined = true;
        r->self_shared.context_id = 2;
        r->self_shared.size = 1;
        r->self_shared.world_rank_of = {i};
        r->self.shared = std::shared_ptr<const CommShared>(std::shared_ptr<const CommShared>(), &r->self_shared);
        r->self.rank = 0;
        r->self.set_name("MPI_COMM_SELF");
        r->self.handle = MPI_COMM_SELF;
        r->self.predefined = true;
        j->ranks.push_back(std::move(r));
    }
    return j;
}

}  // namespace

void end_job(int status, const char* line) {
    report_event("%s", line);
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(status & 0xff ? status & 0xff : 1);
}

int start_job(int argc, char** argv, char** envp, UserMain user_main) {
    const Config& cfg = config();
    if (cfg.control_fd >= 0) {
        // The pipe to hmpirun is ours: programs the application starts must not inherit it.
        fcntl(cfg.control_fd, F_SETFD, FD_CLOEXEC);
        set_event_fd(cfg.control_fd);
    }
    std::unique_ptr<Job> j = build_job(cfg);
    install_job(j.get());
    install_signal_handlers();
    asymmetric_barrier::heavy_available();  // register membarrier before any rank runs

    std::vector<RankStart> starts(static_cast<std::size_t>(cfg.nranks));
    for (int i = 0; i < cfg.nranks; ++i)
        starts[static_cast<std::size_t>(i)] = RankStart{j->ranks[static_cast<std::size_t>(i)].get(), argc, argv, envp, user_main};

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, cfg.stack_bytes);
    // Rank threads are started through the process's first pthread_create (a
    // sanitizer's interceptor, if any, must see them), not through libhmpi's
    // own interposer, which a direct call here would bind to.
    using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
    auto create = reinterpret_cast<CreateFn>(dlsym(RTLD_DEFAULT, "pthread_create"));
    if (!create) die("cannot find pthread_create: %s", dlerror());
    std::vector<pthread_t> threads(static_cast<std::size_t>(cfg.nranks));
    for (int i = 1; i < cfg.nranks; ++i) {
        int rc = create(&threads[static_cast<std::size_t>(i)], &attr, rank_thread, &starts[static_cast<std::size_t>(i)]);
        if (rc != 0) die("cannot start rank %d's thread: %s", i, std::strerror(rc));
    }
    pthread_attr_destroy(&attr);
    // Rank 0 runs on the process's main thread.
    run_rank(starts[0]);
    for (int i = 1; i < cfg.nranks; ++i) pthread_join(threads[static_cast<std::size_t>(i)], nullptr);

    int job_status = 0;
    for (int i = 0; i < cfg.nranks; ++i) {
        int s = j->ranks[static_cast<std::size_t>(i)]->exit_status;
        if (s != 0) {
            report_event("rank %d exited with status %d", i, s);
            if (job_status == 0) job_status = s;
        }
    }
    // The job object stays alive: atexit handlers and static destructors of
    // the program still run after this and may call MPI_Finalized.
    (void)j.release();
    return job_status;
}

}  // namespace hmpi
