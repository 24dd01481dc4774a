// Privatization test, C++ shared libraries: the program linked against libshlib_cxx.so
// (shlib_cxx_lib.cpp, built with `hmpicxx -shared -fPIC`). Each rank checks that the library's
// global object was constructed once in it, writes rank-specific values, synchronizes, and
// checks it still sees its own -- also from a thread it starts. Standard MPI, point-to-point
// only: passes the same way under Open MPI.
#include <mpi.h>

#include <string>
#include <thread>

#include "../mpi/mpitest.h"

int shlib_cxx_constructed();
int shlib_cxx_value();
int shlib_cxx_inline();
std::string shlib_cxx_name();
void shlib_cxx_set(int key);

int main(int argc, char** argv) {
    mt_init(&argc, &argv);
    int rank = mt_rank();
    MT_CHECK(shlib_cxx_constructed() == 1, "rank %d: the library's global constructed %d times in this rank", rank,
             shlib_cxx_constructed());
    MT_CHECK(shlib_cxx_value() == 5, "rank %d: initial value %d", rank, shlib_cxx_value());
    MT_CHECK(shlib_cxx_inline() == 7, "rank %d: inline variable %d", rank, shlib_cxx_inline());
    MT_CHECK(shlib_cxx_name() == "init", "rank %d: function-local static '%s'", rank, shlib_cxx_name().c_str());
    mt_barrier(MPI_COMM_WORLD);
    int key = 100 + rank;
    shlib_cxx_set(key);
    mt_barrier(MPI_COMM_WORLD);
    std::string want = "rank-" + std::to_string(key);
    MT_CHECK(shlib_cxx_value() == key, "rank %d: value %d, expected %d", rank, shlib_cxx_value(), key);
    MT_CHECK(shlib_cxx_inline() == 3 * key, "rank %d: inline variable %d", rank, shlib_cxx_inline());
    MT_CHECK(shlib_cxx_name() == want, "rank %d: function-local static '%s'", rank, shlib_cxx_name().c_str());
    int seen = -1;
    std::string seen_name;
    std::thread t([&] {
        seen = shlib_cxx_value();
        seen_name = shlib_cxx_name();
    });
    t.join();
    MT_CHECK(seen == key && seen_name == want, "rank %d: a thread of the rank sees %d '%s'", rank, seen,
             seen_name.c_str());
    return mt_finalize();
}
