/* Second translation unit of the C privatization test: definitions used through extern from
 * priv_c_main.c, and uses of priv_c_main.c's globals (see priv_c_main.c). Built with -fcommon. */
#include "priv_c.h"

int other_initialized = 11;
int other_zero;
double other_array[64] = {1.5};
int *other_points_to_main = &main_initialized;
int tentative; /* common symbol under -fcommon, merged with priv_c_main.c's */

int other_static_local_next(void) {
    static int next = 100;
    return next++;
}

int other_read_main_initialized(void) { return main_initialized; }

void other_set(int value) {
    other_zero = value;
    other_array[5] = value;
}
