// The per-thread cache of coroutine frames (task.hpp).
//
// Size classes of 128 bytes up to 4 KiB; each class keeps at most
// kKeepPerClass free blocks per thread (a rank rarely has more collectives in
// flight), the rest go back to the heap. Larger frames use the heap directly.
#include "collectives/framework/task.hpp"

#include <new>

namespace hmpi::coll {

namespace {

constexpr std::size_t kClassBytes = 128;
constexpr std::size_t kClasses = 32;  // up to 4 KiB
constexpr int kKeepPerClass = 32;

struct FreeBlock {
    FreeBlock* next;
};

// Trivial, so that the hot path reads it with one initial-exec TLS access
// (libhmpi is loaded with the program); a thread_local with a destructor
// would add a general-dynamic guard access on every call.
struct FrameCache {
    FreeBlock* head[kClasses];
    int count[kClasses];
    bool reaper_registered;
};

thread_local FrameCache frame_cache __attribute__((tls_model("initial-exec"))) = {};

// Gives a thread's cached blocks back when the thread ends; registered the
// first time the thread caches a block (off the hot path).
struct FrameCacheReaper {
    ~FrameCacheReaper() {
        FrameCache& cache = frame_cache;
        for (std::size_t c = 0; c < kClasses; ++c) {
            while (FreeBlock* b = cache.head[c]) {
                cache.head[c] = b->next;
                ::operator delete(b);
            }
            cache.count[c] = 0;
        }
    }
};

void ensure_reaper() {
    thread_local FrameCacheReaper reaper;
    (void)reaper;
}

std::size_t class_of(std::size_t bytes) noexcept { return (bytes + kClassBytes - 1) / kClassBytes - 1; }

}  // namespace

void* alloc_task_frame(std::size_t bytes) {
    const std::size_t c = class_of(bytes);
    if (c >= kClasses) return ::operator new(bytes);
    FrameCache& cache = frame_cache;
    if (FreeBlock* b = cache.head[c]) {
        cache.head[c] = b->next;
        --cache.count[c];
        return b;
    }
    return ::operator new((c + 1) * kClassBytes);
}

void free_task_frame(void* p, std::size_t bytes) noexcept {
    const std::size_t c = class_of(bytes);
    if (c >= kClasses) {
        ::operator delete(p);
        return;
    }
    FrameCache& cache = frame_cache;
    if (cache.count[c] >= kKeepPerClass) {
        ::operator delete(p);
        return;
    }
    if (!cache.reaper_registered) [[unlikely]] {
        cache.reaper_registered = true;
        ensure_reaper();
    }
    auto* b = static_cast<FreeBlock*>(p);
    b->next = cache.head[c];
    cache.head[c] = b;
    ++cache.count[c];
}

}  // namespace hmpi::coll
