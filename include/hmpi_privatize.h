/*
 * hmpi_privatize.h: the opt-out from HMPI's privatization of globals (docs/privatization.md).
 *
 * Programs built with hmpicc/hmpicxx give every rank its own copy of each mutable global and
 * static variable, as separate processes would have. A variable declared with HMPI_SHARED keeps
 * one copy shared by all ranks of the job (all threads of the process), e.g. a counter the
 * ranks update with atomics on purpose:
 *
 *     #include <hmpi_privatize.h>
 *     HMPI_SHARED _Atomic long jobs_done;
 *
 * Put it on the definition (declarations elsewhere need nothing). With other compilers and MPIs
 * the macro expands to nothing, so the program stays portable (each process then has its own).
 */
#ifndef HMPI_PRIVATIZE_H
#define HMPI_PRIVATIZE_H
#if defined(__clang__)
#define HMPI_SHARED __attribute__((annotate("hmpi.shared")))
#else
#define HMPI_SHARED
#endif
#endif
