/*
 * The registration object of a shared library built with the wrappers (`hmpicc -shared`, which
 * links libhmpi_priv_lib.a into it). Compiled WITHOUT the privatizing pass, -fPIC: its load-time
 * constructor is a real one (the pass would move it into the per-rank registry) and its
 * variables are the library's own, shared, bookkeeping.
 *
 * At load time it hands the library's template sections and constructor/destructor registries
 * to the program's privatization runtime (__hmpi_priv_register_module in hmpi_priv_rt.c), which
 * stores into __hmpi_priv_module_offset where the library's deltas lie in each rank's module
 * table. The pass makes the library's functions read them from there (docs/privatization.md).
 */
struct structor {
    unsigned priority;
    void (*fn)(void);
};

struct hmpi_priv_module {
    char *data_start, *data_stop, *bss_start, *bss_stop;
    const struct structor *ctors_start, *ctors_stop, *dtors_start, *dtors_stop;
    long *offset;
};

#define HIDDEN __attribute__((visibility("hidden")))

/* This library's byte offset in a rank's module table (set at registration), and the deltas
 * of a thread acting for no rank (zero: the templates). */
HIDDEN long __hmpi_priv_module_offset;
HIDDEN const long __hmpi_priv_module_zero[2] = {0, 0};

/* The four sections exist in the library even if none of its objects went through the pass, so
 * their __start_/__stop_ symbols are defined. The pragma sets the same data-section /
 * bss-section attributes the pass uses, so the section kinds match. */
#pragma clang section data = "hmpi_priv_data" bss = "hmpi_priv_bss"
__attribute__((used)) static char data_anchor = 1;
__attribute__((used)) static char bss_anchor[0];
#pragma clang section data = "" bss = ""

static void no_structor(void) {}
__attribute__((section("hmpi_priv_ctors"), used)) static const struct structor ctor_anchor = {0, no_structor};
__attribute__((section("hmpi_priv_dtors"), used)) static const struct structor dtor_anchor = {0, no_structor};

extern char __start_hmpi_priv_data[] HIDDEN, __stop_hmpi_priv_data[] HIDDEN;
extern char __start_hmpi_priv_bss[] HIDDEN, __stop_hmpi_priv_bss[] HIDDEN;
extern const struct structor __start_hmpi_priv_ctors[] HIDDEN, __stop_hmpi_priv_ctors[] HIDDEN;
extern const struct structor __start_hmpi_priv_dtors[] HIDDEN, __stop_hmpi_priv_dtors[] HIDDEN;

/* Defined by the program's privatization runtime (libhmpi_priv.a, exported by the wrappers). */
void __hmpi_priv_register_module(const struct hmpi_priv_module *module);

static const struct hmpi_priv_module __hmpi_priv_this_module = {
    __start_hmpi_priv_data, __stop_hmpi_priv_data, __start_hmpi_priv_bss, __stop_hmpi_priv_bss,
    __start_hmpi_priv_ctors, __stop_hmpi_priv_ctors, __start_hmpi_priv_dtors, __stop_hmpi_priv_dtors,
    &__hmpi_priv_module_offset};

/* Priority 101: before the library's other load-time constructors (those of unplugged objects). */
__attribute__((constructor(101))) static void register_library(void) { __hmpi_priv_register_module(&__hmpi_priv_this_module); }
