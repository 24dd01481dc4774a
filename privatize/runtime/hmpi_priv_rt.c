/*
 * The privatization runtime: linked into every program that hmpicc/hmpicxx privatize
 * (libhmpi_priv.a), and compiled itself with the privatizing pass, so that its own ordinary
 * statics below -- the exit jump buffer, the atexit list, rand's state, strtok's position,
 * getopt's state -- are per rank like the program's.
 *
 * What it does (docs/privatization.md):
 *   - __hmpi_priv_rank_entry: the startup stub (runtime/start/hmpi_main.c) enters each rank's
 *     main through it. On the rank's thread it copies the program's template sections into a
 *     fresh per-rank segment, stores the deltas in __hmpi_priv_tls, runs the address fix-ups and
 *     constructors, calls main, then the rank's atexit handlers and destructors.
 *   - Shared libraries built with the wrappers register their sections at load time
 *     (__hmpi_priv_register_module, called from hmpi_priv_lib.c); each rank gets its copies of
 *     them too, in a per-rank module table, and runs their constructors before the program's.
 *   - exit() in a rank's main thread ends that rank only (longjmp back to the entry).
 *   - Per-rank atexit/__cxa_atexit, rand/srand/random/srandom, strtok, getopt/getopt_long.
 *   - __hmpi_priv_get_base / __hmpi_priv_set_base: libhmpi looks them up (dlsym) to give threads
 *     a rank starts the rank's base (runtime/core/privatize.cpp), and a fiber switch will too.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <getopt.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The rank's deltas: [0] for hmpi_priv_data, [1] for hmpi_priv_bss; [2] the rank's module table
 * (shared libraries built with the wrappers, see below); [3] reserved. Zero on threads that act
 * for no rank: they see the templates. */
__thread long __hmpi_priv_tls[4] __attribute__((tls_model("initial-exec")));

/* The thread that entered main for its rank: exit() there ends the rank. */
static __thread int on_rank_main_thread;

/* This program's sections (the pass emits anchors, so they always exist). */
extern char __start_hmpi_priv_data[] __attribute__((visibility("hidden")));
extern char __stop_hmpi_priv_data[] __attribute__((visibility("hidden")));
extern char __start_hmpi_priv_bss[] __attribute__((visibility("hidden")));
extern char __stop_hmpi_priv_bss[] __attribute__((visibility("hidden")));

struct structor {
    unsigned priority;
    void (*fn)(void);
};
extern const struct structor __start_hmpi_priv_ctors[] __attribute__((visibility("hidden")));
extern const struct structor __stop_hmpi_priv_ctors[] __attribute__((visibility("hidden")));
extern const struct structor __start_hmpi_priv_dtors[] __attribute__((visibility("hidden")));
extern const struct structor __stop_hmpi_priv_dtors[] __attribute__((visibility("hidden")));

#define SHARED __attribute__((annotate("hmpi.shared"))) /* one copy for the process */

/* ---- shared libraries built with the wrappers ---------------------------------------------
 * A library linked by `hmpicc -shared` carries the registration object hmpi_priv_lib.c, whose
 * load-time constructor hands its sections to __hmpi_priv_register_module. Each rank gets a
 * module table, long[2 * (1 + libraries)]: the program's data and bss deltas, then each
 * library's; __hmpi_priv_tls[2] points at it, and a library's code reads its deltas at the byte
 * offset the registration gave it (-fPIC objects linked into the program itself use offset 0,
 * defined here). Libraries must be loaded before the ranks start (linked to the program, or
 * dlopen'ed before main): a rank's table is made once, when it starts. */
struct structor;
struct hmpi_priv_module {
    char *data_start, *data_stop, *bss_start, *bss_stop;
    const struct structor *ctors_start, *ctors_stop, *dtors_start, *dtors_stop;
    long *offset; /* the library's __hmpi_priv_module_offset */
};
__attribute__((visibility("hidden"))) long __hmpi_priv_module_offset = 0;
__attribute__((visibility("hidden"))) const long __hmpi_priv_module_zero[2] = {0, 0};

enum { MAX_MODULES = 256 };
static const struct hmpi_priv_module *modules[MAX_MODULES] SHARED;
static int module_count SHARED;
static int ranks_started SHARED;
static pthread_mutex_t module_lock SHARED = PTHREAD_MUTEX_INITIALIZER;

/* Both registries exist in every privatized program, even one without constructors. */
static void no_structor(void) {}
__attribute__((section("hmpi_priv_ctors"), used)) static const struct structor ctor_anchor = {0, no_structor};
__attribute__((section("hmpi_priv_dtors"), used)) static const struct structor dtor_anchor = {0, no_structor};

int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

/* ---- the rank's segment ------------------------------------------------------------------ */

static void fail(const char *what) {
    fprintf(stderr, "hmpi privatization: %s\n", what);
    abort();
}

/* A copy of [start, stop) at the same offset within a page, so every alignment up to a page
 * holds in the copy; returns copy - start. Zero pages are mapped lazily. */
static long copy_section(char *start, char *stop, int zero) {
    size_t len = (size_t)(stop - start);
    if (len == 0) return 0;
    size_t offset = (uintptr_t)start & 4095;
    char *map = mmap(NULL, offset + len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) fail("cannot map a rank's copy of the program's globals");
    char *copy = map + offset;
    if (!zero) memcpy(copy, start, len);
    return copy - start;
}

__attribute__((visibility("default"))) void __hmpi_priv_get_base(long out[4]) {
    memcpy(out, __hmpi_priv_tls, sizeof __hmpi_priv_tls);
}

__attribute__((visibility("default"))) void __hmpi_priv_set_base(const long in[4]) {
    memcpy(__hmpi_priv_tls, in, sizeof __hmpi_priv_tls);
}

/* ---- per-rank state (privatized: everything below is one copy per rank) ------------------- */

struct exit_handler {
    void (*fn)(void *);
    void *arg;
};

static int rank_active;        /* this copy belongs to a running rank */
static jmp_buf exit_jump;      /* exit() in the rank's main thread comes back here */
static int exit_status;
static struct exit_handler *handlers;
static size_t handler_count, handler_capacity;
static pthread_mutex_t handler_lock = PTHREAD_MUTEX_INITIALIZER;  /* threads of the rank */
static int destructors_run;

/* Registry entries sorted by priority, keeping link order among equals (as .init_array). */
static const struct structor **sorted_structors(const struct structor *begin, const struct structor *end,
                                                size_t *count) {
    size_t n = (size_t)(end - begin);
    const struct structor **v = malloc((n ? n : 1) * sizeof *v);
    if (!v) fail("out of memory");
    for (size_t i = 0; i < n; ++i) {
        size_t j = i;
        while (j > 0 && v[j - 1]->priority > begin[i].priority) {
            v[j] = v[j - 1];
            --j;
        }
        v[j] = &begin[i];
    }
    *count = n;
    return v;
}

static void run_registry(const struct structor *begin, const struct structor *end, int reverse) {
    size_t n;
    const struct structor **v = sorted_structors(begin, end, &n);
    if (reverse)
        for (size_t i = n; i > 0; --i) v[i - 1]->fn();
    else
        for (size_t i = 0; i < n; ++i) v[i]->fn();
    free(v);
}

/* The rank's number of libraries (its module table's size), fixed at its start. */
static int rank_module_count;

/* As a process initializes: libraries first, in load order (dependencies first), then the
 * program. */
static void run_constructors(void) {
    for (int i = 0; i < rank_module_count; ++i) run_registry(modules[i]->ctors_start, modules[i]->ctors_stop, 0);
    run_registry(__start_hmpi_priv_ctors, __stop_hmpi_priv_ctors, 0);
}

/* As at a process's exit: atexit handlers in reverse order of registration (C++ static
 * destructors among them), then destructor functions. Pops as it goes, so an exit() from a
 * handler continues with the rest. */
static void finish_rank(void) {
    for (;;) {
        pthread_mutex_lock(&handler_lock);
        if (handler_count == 0) {
            pthread_mutex_unlock(&handler_lock);
            break;
        }
        struct exit_handler h = handlers[--handler_count];
        pthread_mutex_unlock(&handler_lock);
        h.fn(h.arg);
    }
    if (!destructors_run) {
        destructors_run = 1;
        run_registry(__start_hmpi_priv_dtors, __stop_hmpi_priv_dtors, 1);
        for (int i = rank_module_count; i > 0; --i)
            run_registry(modules[i - 1]->dtors_start, modules[i - 1]->dtors_stop, 1);
    }
    fflush(NULL);
}

/* Separate from the entry: a function computes the rank's addresses of the globals it uses on
 * entry, so it must start after the base is installed. */
__attribute__((noinline)) static int rank_body(int module_count_at_start, int (*main_fn)(int, char **, char **),
                                               int argc, char **argv, char **envp) {
    volatile int status = 0;
    rank_active = 1;
    rank_module_count = module_count_at_start;
    if (setjmp(exit_jump) == 0) {
        run_constructors();
        status = main_fn(argc, argv, envp);
    } else {
        status = exit_status;
    }
    finish_rank();
    return status;
}

/* ---- process-wide set-up, before any rank's constructors ---------------------------------- */

/* libstdc++ (GCC 12) constructs std::cout & co. in the first std::ios_base::Init constructor
 * (the `static ios_base::Init __ioinit` of every file including <iostream>) and counts them;
 * once those run per rank, concurrently, a rank could use or flush the streams while another is
 * still constructing them. One process-wide Init, made before any rank's constructors and never
 * destroyed, constructs them once and keeps the count from reaching zero. */
static pthread_once_t process_setup_once SHARED = PTHREAD_ONCE_INIT;
static _Alignas(16) char ios_base_init_object[16] SHARED;

static void process_setup(void) {
    void (*ios_base_init)(void *) = (void (*)(void *))dlsym(RTLD_DEFAULT, "_ZNSt8ios_base4InitC1Ev");
    if (ios_base_init) ios_base_init(ios_base_init_object);
}

__attribute__((visibility("default"))) int __hmpi_priv_rank_entry(int (*main_fn)(int, char **, char **), int argc,
                                                                  char **argv, char **envp) {
    pthread_once(&process_setup_once, process_setup);
    pthread_mutex_lock(&module_lock);
    ranks_started = 1;
    int count = module_count;
    pthread_mutex_unlock(&module_lock);
    long *table = malloc((size_t)(2 * (1 + count)) * sizeof *table);
    if (!table) fail("out of memory");
    table[0] = copy_section(__start_hmpi_priv_data, __stop_hmpi_priv_data, 0);
    table[1] = copy_section(__start_hmpi_priv_bss, __stop_hmpi_priv_bss, 1);
    for (int i = 0; i < count; ++i) {
        table[2 + 2 * i] = copy_section(modules[i]->data_start, modules[i]->data_stop, 0);
        table[3 + 2 * i] = copy_section(modules[i]->bss_start, modules[i]->bss_stop, 1);
    }
    long base[4] = {table[0], table[1], (long)table, 0};
    __hmpi_priv_set_base(base);
    on_rank_main_thread = 1;
    int status = rank_body(count, main_fn, argc, argv, envp);
    on_rank_main_thread = 0;
    return status;
}

/* Called by a library's registration constructor when it is loaded. */
__attribute__((visibility("default"))) void __hmpi_priv_register_module(const struct hmpi_priv_module *module) {
    pthread_mutex_lock(&module_lock);
    if (ranks_started) {
        pthread_mutex_unlock(&module_lock);
        fail("a shared library built with hmpicc/hmpicxx was loaded after the ranks started (dlopen in a rank);"
             " this is not supported: link it to the program or load it before MPI ranks start");
    }
    if (module_count == MAX_MODULES) {
        pthread_mutex_unlock(&module_lock);
        fail("too many shared libraries built with hmpicc/hmpicxx");
    }
    modules[module_count] = module;
    *module->offset = (long)(2 * (1 + module_count) * sizeof(long));
    ++module_count;
    pthread_mutex_unlock(&module_lock);
}

/* ---- exit and atexit ---------------------------------------------------------------------- */

int __hmpi_cxa_atexit(void (*fn)(void *), void *arg, void *dso) {
    if (!rank_active) return __cxa_atexit(fn, arg, dso);  /* not in a rank: the process's */
    pthread_mutex_lock(&handler_lock);
    if (handler_count == handler_capacity) {
        size_t capacity = handler_capacity ? 2 * handler_capacity : 32;
        struct exit_handler *grown = realloc(handlers, capacity * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&handler_lock);
            return -1;
        }
        handlers = grown;
        handler_capacity = capacity;
    }
    handlers[handler_count++] = (struct exit_handler){fn, arg};
    pthread_mutex_unlock(&handler_lock);
    return 0;
}

static void call_plain_handler(void *fn) { ((void (*)(void))fn)(); }

int __hmpi_atexit(void (*fn)(void)) {
    if (!rank_active) return atexit(fn);
    return __hmpi_cxa_atexit(call_plain_handler, (void *)fn, NULL);
}

__attribute__((noreturn)) void __hmpi_exit(int status) {
    if (rank_active && on_rank_main_thread) {
        exit_status = status;
        longjmp(exit_jump, 1);
    }
    /* Outside ranks, or a thread the rank started: as in a process, exit() ends everything. */
    exit(status);
}

/* ---- rand, random, strtok ----------------------------------------------------------------- */

static struct random_data random_state;
static char random_buffer[128]; /* glibc's rand(): TYPE_3, 128 bytes of state, seed 1 */
static int random_ready;
static pthread_mutex_t random_lock = PTHREAD_MUTEX_INITIALIZER;

static void random_seed_locked(unsigned seed) {
    if (!random_ready) {
        memset(&random_state, 0, sizeof random_state);
        initstate_r(seed, random_buffer, sizeof random_buffer, &random_state);
        random_ready = 1;
    } else {
        srandom_r(seed, &random_state);
    }
}

long __hmpi_random(void) {
    int32_t r;
    pthread_mutex_lock(&random_lock);
    if (!random_ready) random_seed_locked(1);
    random_r(&random_state, &r);
    pthread_mutex_unlock(&random_lock);
    return r;
}

int __hmpi_rand(void) { return (int)__hmpi_random(); }

void __hmpi_srandom(unsigned seed) {
    pthread_mutex_lock(&random_lock);
    random_seed_locked(seed);
    pthread_mutex_unlock(&random_lock);
}

void __hmpi_srand(unsigned seed) { __hmpi_srandom(seed); }

static char *strtok_position;

char *__hmpi_strtok(char *s, const char *delim) { return strtok_r(s, delim, &strtok_position); }

/* ---- getopt ------------------------------------------------------------------------------- */
/* glibc keeps getopt's position in one hidden static, so its getopt cannot be per rank; this is
 * a getopt with glibc's behaviour (argument permutation, "+", "-" and ":" prefixes,
 * POSIXLY_CORRECT, long options with unique prefixes, getopt_long_only, glibc's messages) over
 * per-rank state. Programs' optind/optarg/opterr/optopt are redirected here by the pass. */

int __hmpi_optind = 1;
int __hmpi_opterr = 1;
int __hmpi_optopt = '?';
char *__hmpi_optarg;

static char *opt_next;           /* the rest of a group of short options, e.g. "bc" of "-abc" */
static int opt_first_nonopt, opt_last_nonopt;
static int opt_initialized;

enum opt_ordering { REQUIRE_ORDER, PERMUTE, RETURN_IN_ORDER };

/* Moves the skipped non-options [first_nonopt, last_nonopt) after the options that followed
 * them [last_nonopt, optind). */
static void opt_exchange(char **argv) {
    int nonopts = opt_last_nonopt - opt_first_nonopt, opts = __hmpi_optind - opt_last_nonopt;
    if (nonopts > 0 && opts > 0) {
        char **saved = malloc((size_t)nonopts * sizeof *saved);
        if (!saved) fail("out of memory");
        memcpy(saved, argv + opt_first_nonopt, (size_t)nonopts * sizeof *saved);
        memmove(argv + opt_first_nonopt, argv + opt_last_nonopt, (size_t)opts * sizeof *saved);
        memcpy(argv + opt_first_nonopt + opts, saved, (size_t)nonopts * sizeof *saved);
        free(saved);
    }
    opt_first_nonopt += opts;
    opt_last_nonopt = __hmpi_optind;
}

static int opt_long(int argc, char **argv, const char *optstring, const struct option *longopts, int *longindex,
                    int print_errors, const char *prefix, int missing_colon) {
    char *name = opt_next;
    size_t name_len = strcspn(name, "=");
    const struct option *found = NULL;
    int found_index = -1, ambiguous = 0;
    for (int i = 0; longopts[i].name; ++i) {
        if (strncmp(longopts[i].name, name, name_len) != 0) continue;
        if (strlen(longopts[i].name) == name_len) {
            found = &longopts[i];
            found_index = i;
            ambiguous = 0;
            break;
        }
        if (!found) {
            found = &longopts[i];
            found_index = i;
        } else if (found->has_arg != longopts[i].has_arg || found->flag != longopts[i].flag ||
                   found->val != longopts[i].val) {
            ambiguous = 1;
        }
    }
    (void)optstring;
    if (ambiguous) {
        if (print_errors) fprintf(stderr, "%s: option '%s%s' is ambiguous\n", argv[0], prefix, name);
        opt_next = NULL;
        __hmpi_optind++;
        __hmpi_optopt = 0;
        return '?';
    }
    if (!found) return -2; /* caller decides: short option fallback or error */
    __hmpi_optind++;
    opt_next = NULL;
    if (name[name_len] == '=') {
        if (found->has_arg == no_argument) {
            if (print_errors)
                fprintf(stderr, "%s: option '%s%s' doesn't allow an argument\n", argv[0], prefix, found->name);
            __hmpi_optopt = found->val;
            return '?';
        }
        __hmpi_optarg = name + name_len + 1;
    } else if (found->has_arg == required_argument) {
        if (__hmpi_optind < argc) {
            __hmpi_optarg = argv[__hmpi_optind++];
        } else {
            if (print_errors)
                fprintf(stderr, "%s: option '%s%s' requires an argument\n", argv[0], prefix, found->name);
            __hmpi_optopt = found->val;
            return missing_colon ? ':' : '?';
        }
    } else {
        __hmpi_optarg = NULL;
    }
    if (longindex) *longindex = found_index;
    if (found->flag) {
        *found->flag = found->val;
        return 0;
    }
    return found->val;
}

static int opt_parse(int argc, char **argv, const char *optstring, const struct option *longopts, int *longindex,
                     int long_only) {
    if (argc < 1) return -1;
    __hmpi_optarg = NULL;
    enum opt_ordering ordering = getenv("POSIXLY_CORRECT") ? REQUIRE_ORDER : PERMUTE;
    if (*optstring == '-') {
        ordering = RETURN_IN_ORDER;
        ++optstring;
    } else if (*optstring == '+') {
        ordering = REQUIRE_ORDER;
        ++optstring;
    }
    int missing_colon = *optstring == ':';
    int print_errors = __hmpi_opterr && !missing_colon;

    if (__hmpi_optind == 0 || !opt_initialized) {
        if (__hmpi_optind == 0) __hmpi_optind = 1;
        opt_first_nonopt = opt_last_nonopt = __hmpi_optind;
        opt_next = NULL;
        opt_initialized = 1;
    }
#define NONOPTION(i) (argv[i][0] != '-' || argv[i][1] == '\0')
    if (opt_next == NULL || *opt_next == '\0') {
        if (opt_last_nonopt > __hmpi_optind) opt_last_nonopt = __hmpi_optind;
        if (opt_first_nonopt > __hmpi_optind) opt_first_nonopt = __hmpi_optind;
        if (ordering == PERMUTE) {
            if (opt_first_nonopt != opt_last_nonopt && opt_last_nonopt != __hmpi_optind) opt_exchange(argv);
            else if (opt_last_nonopt != __hmpi_optind) opt_first_nonopt = __hmpi_optind;
            while (__hmpi_optind < argc && NONOPTION(__hmpi_optind)) __hmpi_optind++;
            opt_last_nonopt = __hmpi_optind;
        }
        if (__hmpi_optind != argc && strcmp(argv[__hmpi_optind], "--") == 0) {
            __hmpi_optind++;
            if (opt_first_nonopt != opt_last_nonopt && opt_last_nonopt != __hmpi_optind) opt_exchange(argv);
            else if (opt_first_nonopt == opt_last_nonopt) opt_first_nonopt = __hmpi_optind;
            opt_last_nonopt = argc;
            __hmpi_optind = argc;
        }
        if (__hmpi_optind == argc) {
            if (opt_first_nonopt != opt_last_nonopt) __hmpi_optind = opt_first_nonopt;
            return -1;
        }
        if (NONOPTION(__hmpi_optind)) {
            if (ordering == REQUIRE_ORDER) return -1;
            __hmpi_optarg = argv[__hmpi_optind++];
            return 1;
        }
        if (longopts) {
            char *arg = argv[__hmpi_optind];
            if (arg[1] == '-') {
                opt_next = arg + 2;
                int r = opt_long(argc, argv, optstring, longopts, longindex, print_errors, "--", missing_colon);
                if (r != -2) return r;
                if (print_errors) fprintf(stderr, "%s: unrecognized option '--%s'\n", argv[0], opt_next);
                opt_next = NULL;
                __hmpi_optind++;
                __hmpi_optopt = 0;
                return '?';
            }
            if (long_only && (arg[2] || !strchr(optstring, arg[1]))) {
                opt_next = arg + 1;
                int r = opt_long(argc, argv, optstring, longopts, longindex, print_errors, "-", missing_colon);
                if (r != -2) return r;
                if (!strchr(optstring, arg[1])) {
                    if (print_errors) fprintf(stderr, "%s: unrecognized option '-%s'\n", argv[0], opt_next);
                    opt_next = NULL;
                    __hmpi_optind++;
                    __hmpi_optopt = 0;
                    return '?';
                }
            }
        }
        opt_next = argv[__hmpi_optind] + 1;
    }
#undef NONOPTION
    char c = *opt_next++;
    const char *spec = strchr(optstring, c);
    if (*opt_next == '\0') __hmpi_optind++;
    if (spec == NULL || c == ':' || c == ';') {
        if (print_errors) fprintf(stderr, "%s: invalid option -- '%c'\n", argv[0], c);
        __hmpi_optopt = c;
        return '?';
    }
    if (spec[1] == ':') {
        if (spec[2] == ':') {
            if (*opt_next != '\0') {
                __hmpi_optarg = opt_next;
                __hmpi_optind++;
            } else {
                __hmpi_optarg = NULL;
            }
        } else if (*opt_next != '\0') {
            __hmpi_optarg = opt_next;
            __hmpi_optind++;
        } else if (__hmpi_optind == argc) {
            if (print_errors) fprintf(stderr, "%s: option requires an argument -- '%c'\n", argv[0], c);
            __hmpi_optopt = c;
            c = missing_colon ? ':' : '?';
        } else {
            __hmpi_optarg = argv[__hmpi_optind++];
        }
        opt_next = NULL;
    }
    return c;
}

int __hmpi_getopt(int argc, char *const argv[], const char *optstring) {
    return opt_parse(argc, (char **)argv, optstring, NULL, NULL, 0);
}

int __hmpi_getopt_long(int argc, char *const argv[], const char *optstring, const struct option *longopts,
                       int *longindex) {
    return opt_parse(argc, (char **)argv, optstring, longopts, longindex, 0);
}

int __hmpi_getopt_long_only(int argc, char *const argv[], const char *optstring, const struct option *longopts,
                            int *longindex) {
    return opt_parse(argc, (char **)argv, optstring, longopts, longindex, 1);
}
