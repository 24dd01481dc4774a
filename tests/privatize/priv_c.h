/* Shared declarations of the C privatization test (priv_c_main.c, priv_c_other.c). */
#ifndef PRIV_C_H
#define PRIV_C_H
#define BIG_COUNT (4 << 20) /* a 16 MiB zero-initialized array: must not grow the binary */

/* Defined in priv_c_other.c, used from priv_c_main.c (extern globals across translation units). */
extern int other_initialized;           /* = 11 */
extern int other_zero;                  /* = 0 */
extern double other_array[64];          /* {1.5, ...} first element, rest 0 */
extern int *other_points_to_main;       /* = &main_initialized (an address across TUs) */
extern int tentative;                   /* -fcommon tentative definition in both TUs */
int other_static_local_next(void);      /* a static local counter in priv_c_other.c, from 100 */
int other_read_main_initialized(void);  /* reads main_initialized through an extern there */
void other_set(int value);              /* writes other_zero and other_array[5] */

extern int main_initialized;            /* = 7, defined in priv_c_main.c */
#endif
