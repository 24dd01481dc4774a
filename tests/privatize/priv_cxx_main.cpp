// Privatization test, C++ (with priv_cxx_other.cpp): global constructors and destructors run
// once per rank, on the rank's thread, destructors at the rank's exit in reverse order;
// function-local statics with dynamic initialization, template static members and inline
// variables are initialized once per rank; std::thread inside a rank shares its globals;
// std::cout works. Every global is checked for its initial value, written with rank-specific
// values, and checked again after the ranks have synchronized. Must pass the same way under
// Open MPI (ranks are processes). Standard MPI, point-to-point only.
#include <mpi.h>
#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <thread>

#include "../mpi/mpitest.h"
#include "priv_cxx.h"

namespace {

// Filled by the destructors below; trivially destructible, so it outlives them all.
const char* destruction_log[8];
int destruction_count;
int constructed_count;

struct Tracked {
    std::string name;
    pthread_t constructed_on;
    int value;
    explicit Tracked(const char* n, int v) : name(n), constructed_on(pthread_self()), value(v) { ++constructed_count; }
    ~Tracked() {
        if (destruction_count < 8) destruction_log[destruction_count++] = name == "first" ? "first" : name == "second" ? "second" : "function-static";
    }
};

// Constructed before everything else here, destroyed after everything else: checks that the
// rank's destructors ran, in reverse order of construction, on the rank's own thread.
struct FinalCheck {
    pthread_t main_thread{};
    ~FinalCheck() {
        const char* expected[] = {"function-static", "second", "first"};
        bool ok = destruction_count == 3 && pthread_equal(main_thread, pthread_self());
        for (int i = 0; ok && i < 3; ++i) ok = std::strcmp(destruction_log[i], expected[i]) == 0;
        if (!ok) {
            std::fprintf(stderr, "FAIL: destructors at rank exit: %d ran, order or thread wrong\n", destruction_count);
            std::fflush(stderr);
            _exit(1);
        }
    }
};
__attribute__((init_priority(101))) FinalCheck final_check;

Tracked first("first", 1);
Tracked second("second", 2);
std::string greeting = "hello";

Tracked& function_static() {
    static Tracked t("function-static", next_construction() * 0 + 3);
    return t;
}

template <typename T>
T& template_function_static() {
    static T value = T(next_construction() * 0 + 9);
    return value;
}

}  // namespace

int main(int argc, char** argv) {
    mt_init(&argc, &argv);
    int rank = mt_rank();
    final_check.main_thread = pthread_self();

    // Initial values: constructors ran once in this rank, on this thread.
    MT_CHECK(constructed_count == 2, "%d global constructors ran in this rank, expected 2", constructed_count);
    MT_CHECK(pthread_equal(first.constructed_on, pthread_self()) && pthread_equal(second.constructed_on, pthread_self()),
             "global constructors did not run on the rank's thread");
    MT_CHECK(first.value == 1 && second.value == 2 && greeting == "hello" && other_global == "other",
             "initial values of globals with constructors");
    MT_CHECK(Registry<int>::items.size() == 1 && &other_items() == &Registry<int>::items, "template static member");
    MT_CHECK(Registry<double>::items.size() == 1, "template static member (double)");
    MT_CHECK(inline_name.rfind("inline-", 0) == 0 && &other_inline_name() == &inline_name, "inline variable: %s",
             inline_name.c_str());
    MT_CHECK(inline_plain == 21, "inline_plain = %d", inline_plain);
    // Two template members and one inline variable: exactly three dynamic initializations so far.
    MT_CHECK(next_construction() == 4, "dynamic initializations ran more or less than once in this rank");
    MT_CHECK(function_static().value == 3 && constructed_count == 3, "function-local static");
    MT_CHECK(other_function_static() == 500, "function-local static of the other TU");
    MT_CHECK(template_function_static<long>() == 9, "function-local static in a template");
    mt_barrier(MPI_COMM_WORLD);

    // Rank-specific values everywhere.
    first.value = 100 + rank;
    second.value = 200 + rank;
    greeting = "hello from " + std::to_string(rank);
    other_global = "other " + std::to_string(rank);
    Registry<int>::items.push_back(rank);
    Registry<double>::items.assign(3, rank + 0.5);
    inline_name = "inline rank " + std::to_string(rank);
    inline_plain = 300 + rank;
    function_static().value = 400 + rank;
    other_function_static() = 500 + rank;
    template_function_static<long>() = 600 + rank;
    mt_barrier(MPI_COMM_WORLD);

    MT_CHECK(first.value == 100 + rank && second.value == 200 + rank, "Tracked values %d %d", first.value, second.value);
    MT_CHECK(greeting == "hello from " + std::to_string(rank), "greeting = %s", greeting.c_str());
    MT_CHECK(other_global == "other " + std::to_string(rank), "other_global = %s", other_global.c_str());
    MT_CHECK(other_items().size() == 2 && other_items()[1] == rank, "Registry<int>::items");
    MT_CHECK(Registry<double>::items.size() == 3 && Registry<double>::items[2] == rank + 0.5, "Registry<double>::items");
    MT_CHECK(other_inline_name() == "inline rank " + std::to_string(rank), "inline_name = %s", other_inline_name().c_str());
    MT_CHECK(inline_plain == 300 + rank, "inline_plain = %d", inline_plain);
    MT_CHECK(function_static().value == 400 + rank && constructed_count == 3, "function-local static = %d",
             function_static().value);
    MT_CHECK(other_function_static() == 500 + rank, "other function-local static = %d", other_function_static());
    MT_CHECK(template_function_static<long>() == 600 + rank, "template function static");
    MT_CHECK(next_construction() == 8, "a function-local static was initialized again");

    // A std::thread of this rank sees and updates the rank's globals.
    int seen = -1;
    std::thread worker([&] {
        seen = first.value;
        second.value += 1000;
        std::cout << "";
    });
    worker.join();
    MT_CHECK(seen == 100 + rank && second.value == 1200 + rank, "std::thread saw %d", seen);
    mt_barrier(MPI_COMM_WORLD);
    MT_CHECK(second.value == 1200 + rank && greeting == "hello from " + std::to_string(rank), "values at the end");
    std::cout.flush();
    return mt_finalize();
}
