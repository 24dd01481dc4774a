/* The interface of the shared-library privatization test (shlib_lib.c, built into a shared
 * library with `hmpicc -shared -fPIC`, and shlib_main.c, the program linked against it). */
#pragma once
#define SHLIB_ZERO_COUNT 4096
/* 0 if the library's globals hold their initial values (and its constructor ran once in this
 * rank), else the number of the first check that failed. */
int shlib_check_initial(void);
/* Writes values derived from `key` into every global of the library. */
void shlib_set(int key);
/* 0 if every global of the library holds the values shlib_set(key) wrote, else the check. */
int shlib_check(int key);
/* The library's static-local counter: 100, 101, ... per rank. */
int shlib_next(void);
