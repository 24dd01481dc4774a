// Threads a rank starts (pthreads, OpenMP workers) act for that rank: the
// runtime interposes pthread_create so the new thread inherits the creator's
// current rank. Without this, a thread of rank 3 calling MPI under
// MPI_THREAD_MULTIPLE would not know which rank it is.
#include <dlfcn.h>
#include <pthread.h>

#include "base/log.hpp"
#include "core/rank.hpp"

namespace {

using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

struct Trampoline {
    void* (*fn)(void*);
    void* arg;
    hmpi::Rank* rank;
};

void* trampoline_entry(void* p) {
    Trampoline t = *static_cast<Trampoline*>(p);
    delete static_cast<Trampoline*>(p);
    hmpi::set_current_rank(t.rank);
    hmpi::set_rank_main_thread(false);
    return t.fn(t.arg);
}

CreateFn real_pthread_create() {
    static CreateFn fn = reinterpret_cast<CreateFn>(dlsym(RTLD_NEXT, "pthread_create"));
    if (!fn) hmpi::die("cannot find pthread_create: %s", dlerror());
    return fn;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                                                                      void* (*start)(void*), void* arg) {
    hmpi::Rank* rank = hmpi::current_rank();
    if (!rank) return real_pthread_create()(thread, attr, start, arg);
    auto* t = new Trampoline{start, arg, rank};
    int rc = real_pthread_create()(thread, attr, trampoline_entry, t);
    if (rc != 0) delete t;
    return rc;
}
