/*
 * Privatization test, shared library half (see shlib_main.c): the globals of a shared library
 * built with `hmpicc -shared -fPIC` are per rank, like the program's. Initialized,
 * zero-initialized (a large array), pointer initializers (to an exported and to a static
 * global), a static local, and a load-time constructor, which runs once per rank. Plain C, no
 * MPI: built with mpicc.openmpi it is an ordinary library of an ordinary process.
 */
#include "shlib.h"

int lib_initialized = 11;
static long lib_static = 5;
static int lib_zero[SHLIB_ZERO_COUNT];
int *lib_pointer = &lib_initialized;
static int *lib_pointer_static = &lib_zero[7];
static int constructor_runs;
static int constructor_saw = -1; /* lib_initialized as the constructor saw it */

__attribute__((constructor)) static void library_constructor(void) {
    ++constructor_runs;
    constructor_saw = lib_initialized;
}

int shlib_next(void) {
    static int next = 100;
    return next++;
}

int shlib_check_initial(void) {
    if (lib_initialized != 11) return 1;
    if (lib_static != 5) return 2;
    for (int i = 0; i < SHLIB_ZERO_COUNT; ++i)
        if (lib_zero[i] != 0) return 3;
    if (lib_pointer != &lib_initialized || *lib_pointer != 11) return 4;
    if (lib_pointer_static != &lib_zero[7]) return 5;
    if (constructor_runs != 1) return 6;
    if (constructor_saw != 11) return 7;
    return 0;
}

void shlib_set(int key) {
    lib_initialized = 1000 + key;
    lib_static = 2000 + key;
    for (int i = 0; i < SHLIB_ZERO_COUNT; ++i) lib_zero[i] = key * 7 + i;
    *lib_pointer_static += 1; /* lib_zero[7] */
}

int shlib_check(int key) {
    if (lib_initialized != 1000 + key || *lib_pointer != 1000 + key) return 11;
    if (lib_static != 2000 + key) return 12;
    for (int i = 0; i < SHLIB_ZERO_COUNT; ++i)
        if (lib_zero[i] != key * 7 + i + (i == 7)) return 13;
    if (lib_pointer != &lib_initialized || lib_pointer_static != &lib_zero[7]) return 14;
    if (constructor_runs != 1) return 15;
    return 0;
}
