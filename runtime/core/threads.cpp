// Threads a rank starts (pthreads, OpenMP workers) act for that rank: the
// runtime interposes pthread_create so the new thread inherits the creator's
// current rank. Without this, a thread of rank 3 calling MPI under
// MPI_THREAD_MULTIPLE would not know which rank it is. Two routes lead here:
// the dynamic pthread_create below (calls from any library), and the startup
// stub's __wrap_pthread_create (the program's own calls, linked with
// --wrap=pthread_create; it still works where a sanitizer runtime binds
// pthread_create ahead of libhmpi). A thread that comes through both just
// sets the same rank twice.
#include <dlfcn.h>
#include <pthread.h>

#include "base/log.hpp"
#include "core/privatize.hpp"
#include "core/rank.hpp"

namespace {

using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

struct Trampoline {
    void* (*fn)(void*);
    void* arg;
    hmpi::Rank* rank;
    hmpi::PrivatizationBase globals;  // the rank's privatized globals (privatize.hpp)
};

void* trampoline_entry(void* p) {
    Trampoline t = *static_cast<Trampoline*>(p);
    delete static_cast<Trampoline*>(p);
    hmpi::set_current_rank(t.rank);
    hmpi::set_rank_main_thread(false);
    hmpi::privatization_install(t.globals);  // share the rank's globals
    return t.fn(t.arg);
}

// The pthread_create after libhmpi's in lookup order (libc's). Only callers
// that reached libhmpi's interposer come here; under a sanitizer, whose
// runtime precedes libhmpi, they never do (the program's calls arrive
// through the startup stub with the sanitizer's function instead).
[[maybe_unused]] CreateFn real_pthread_create() {
    static CreateFn fn = reinterpret_cast<CreateFn>(dlsym(RTLD_NEXT, "pthread_create"));
    if (!fn) hmpi::die("cannot find pthread_create: %s", dlerror());
    return fn;
}

}  // namespace

// Starts a thread with `create` (the next pthread_create in line) so that it
// inherits the calling thread's rank.
extern "C" __attribute__((visibility("default"))) int hmpi_thread_create(pthread_t* thread, const pthread_attr_t* attr,
                                                                          void* (*start)(void*), void* arg, CreateFn create) {
    hmpi::Rank* rank = hmpi::current_rank();
    if (!rank) return create(thread, attr, start, arg);
    auto* t = new Trampoline{start, arg, rank, hmpi::privatization_capture()};
    int rc = create(thread, attr, trampoline_entry, t);
    if (rc != 0) delete t;
    return rc;
}

#if !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
// Not in sanitizer builds: there the sanitizer's own pthread_create would
// find this one as its "real" function and run our trampoline on a thread
// the sanitizer has not set up yet. Sanitizer builds rely on the startup
// stub's route alone (threads started by libraries do not inherit the rank).
extern "C" __attribute__((visibility("default"))) int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                                                                      void* (*start)(void*), void* arg) {
    return hmpi_thread_create(thread, attr, start, arg, real_pthread_create());
}
#endif
