// Static test registration, as C++ test suites do it: TEST(...) defines a function and a
// global registrar whose constructor adds it to a registry (a function-local static vector).
// Under HMPI every rank must build its own registry once (constructors run per rank); each rank
// runs the tests, which keep state in globals, and rank 0 prints every rank's results in rank
// order. The output must be the same as under Open MPI.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

struct TestCase {
    const char* name;
    long (*fn)(int rank);
};

std::vector<TestCase>& registry() {
    static std::vector<TestCase> tests;
    return tests;
}

struct Registrar {
    Registrar(const char* name, long (*fn)(int)) { registry().push_back({name, fn}); }
};

#define TEST(name)                                   \
    long test_##name(int rank);                      \
    Registrar registrar_##name(#name, test_##name);  \
    long test_##name(int rank)

long calls;                   // every test bumps it
std::string journal = "start";  // a global with a constructor

TEST(counts) {
    calls += 1;
    return calls * 100 + rank;
}
TEST(strings) {
    calls += 1;
    journal += "/" + std::to_string(rank);
    return static_cast<long>(journal.size()) * 10 + calls;
}
TEST(statics) {
    static long memo = 7;  // a function-local static
    memo = memo * 3 + rank;
    calls += 1;
    return memo + calls;
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::vector<long> results;
    results.push_back(static_cast<long>(registry().size()));
    for (int round = 0; round < 2; ++round)
        for (const TestCase& t : registry()) results.push_back(t.fn(rank));
    int n = static_cast<int>(results.size());
    if (rank == 0) {
        for (int r = 0; r < size; ++r) {
            std::vector<long> theirs(results);
            if (r != 0) MPI_Recv(theirs.data(), n, MPI_LONG, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            std::printf("rank %d: %ld tests:", r, theirs[0]);
            for (int i = 1; i < n; ++i) std::printf(" %s=%ld", registry()[(i - 1) % registry().size()].name, theirs[i]);
            std::printf("\n");
        }
    } else {
        MPI_Send(results.data(), n, MPI_LONG, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
