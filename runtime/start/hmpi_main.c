/*
 * The startup stub, linked statically into every program built with hmpicc.
 *
 * hmpicc links with -Wl,--wrap=main: the C runtime's call to main() then
 * lands in __wrap_main below, and __real_main names the program's own main.
 * The runtime runs __real_main once per rank, each on its own thread.
 * (The wrap must be resolved at static link time, which is why this stub is
 * a static archive and not part of libhmpi.so.)
 */
#include <pthread.h>

int __real_main(int argc, char **argv, char **envp);
int hmpi_start(int argc, char **argv, char **envp, int (*user_main)(int, char **, char **));

/*
 * A program whose globals hmpicc/hmpicxx privatized also links libhmpi_priv.a, whose
 * __hmpi_priv_rank_entry sets up the rank's copy of the globals, runs its constructors, main,
 * atexit handlers and destructors (docs/privatization.md). Weak: other programs lack it, and
 * enter main directly.
 */
int __hmpi_priv_rank_entry(int (*user_main)(int, char **, char **), int argc, char **argv, char **envp)
    __attribute__((weak));

static int privatized_main(int argc, char **argv, char **envp) {
    return __hmpi_priv_rank_entry(__real_main, argc, argv, envp);
}

int __wrap_main(int argc, char **argv, char **envp) {
    return hmpi_start(argc, argv, envp, __hmpi_priv_rank_entry ? privatized_main : __real_main);
}

/*
 * hmpicc also links with -Wl,--wrap=pthread_create: threads the program
 * itself starts inherit the calling rank (MPI calls from them act for it).
 * libhmpi interposes pthread_create dynamically as well, which covers
 * libraries (libstdc++'s std::thread, OpenMP runtimes); this static route
 * also holds where a sanitizer runtime binds pthread_create before libhmpi.
 */
typedef int (*hmpi_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int __real_pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg);
int hmpi_thread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg,
                       hmpi_create_fn create);

int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg) {
    return hmpi_thread_create(thread, attr, start, arg, __real_pthread_create);
}
