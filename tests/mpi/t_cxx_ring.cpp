// t_cxx_ring: mpi.h from C++. Ring exchanges with std::vector buffers:
// Sendrecv and Isend/Irecv/Waitall, sizes 1 .. 100000 ints, plus a token
// passed once around the whole ring (each rank adds its rank). Checks that the
// header compiles warning-free as C++ and that C++ objects (vectors, lambdas,
// std::string) work around MPI calls. Works on 1 rank.
#include "mpitest.h"

#include <string>
#include <vector>

namespace {

int value(int src, int round, std::size_t i) { return src * 1000003 + round * 7919 + static_cast<int>(i % 100000); }

void ring_sendrecv(int rank, int size, std::size_t n, int round)
{
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    std::vector<int> out(n), in(n, -1);
    for (std::size_t i = 0; i < n; ++i) out[i] = value(rank, round, i);
    MPI_Status st;
    MT_CHECK_RC(MPI_Sendrecv(out.data(), static_cast<int>(n), MPI_INT, right, round, in.data(), static_cast<int>(n),
                             MPI_INT, left, round, MPI_COMM_WORLD, &st));
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    MT_CHECK(count == static_cast<int>(n), "Sendrecv n=%zu: count %d", n, count);
    MT_CHECK(st.MPI_SOURCE == left, "Sendrecv n=%zu: source %d", n, st.MPI_SOURCE);
    std::size_t bad = n;
    for (std::size_t i = 0; i < n; ++i)
        if (in[i] != value(left, round, i)) {
            bad = i;
            break;
        }
    MT_CHECK(bad == n, "Sendrecv n=%zu: wrong value at %zu", n, bad);
}

void ring_nonblocking(int rank, int size, std::size_t n, int round)
{
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    std::vector<double> to_right(n), to_left(n), from_left(n), from_right(n);
    for (std::size_t i = 0; i < n; ++i) {
        to_right[i] = rank + 0.5 * static_cast<double>(i);
        to_left[i] = -rank - 0.25 * static_cast<double>(i);
    }
    std::vector<MPI_Request> reqs(4, MPI_REQUEST_NULL);
    const int cnt = static_cast<int>(n);
    MT_CHECK_RC(MPI_Irecv(from_left.data(), cnt, MPI_DOUBLE, left, 1000 + round, MPI_COMM_WORLD, &reqs[0]));
    MT_CHECK_RC(MPI_Irecv(from_right.data(), cnt, MPI_DOUBLE, right, 2000 + round, MPI_COMM_WORLD, &reqs[1]));
    MT_CHECK_RC(MPI_Isend(to_right.data(), cnt, MPI_DOUBLE, right, 1000 + round, MPI_COMM_WORLD, &reqs[2]));
    MT_CHECK_RC(MPI_Isend(to_left.data(), cnt, MPI_DOUBLE, left, 2000 + round, MPI_COMM_WORLD, &reqs[3]));
    std::vector<MPI_Status> sts(reqs.size());
    MT_CHECK_RC(MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), sts.data()));
    for (const MPI_Request &r : reqs) MT_CHECK(r == MPI_REQUEST_NULL, "Waitall left a request active");
    auto mismatch = [&](const std::vector<double> &v, auto expected) {
        for (std::size_t i = 0; i < v.size(); ++i)
            if (v[i] != expected(i)) return i;
        return v.size();
    };
    MT_CHECK(mismatch(from_left, [&](std::size_t i) { return left + 0.5 * static_cast<double>(i); }) == n,
             "nonblocking n=%zu: data from left wrong", n);
    MT_CHECK(mismatch(from_right, [&](std::size_t i) { return -right - 0.25 * static_cast<double>(i); }) == n,
             "nonblocking n=%zu: data from right wrong", n);
}

// A token travels once around the ring; every rank adds its rank number.
void token_ring(int rank, int size)
{
    std::vector<long long> token(1, 0);
    if (size == 1) return;
    if (rank == 0) {
        MT_CHECK_RC(MPI_Send(token.data(), 1, MPI_LONG_LONG, 1, 7, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Recv(token.data(), 1, MPI_LONG_LONG, size - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        const long long expect = static_cast<long long>(size) * (size - 1) / 2;
        MT_CHECK(token[0] == expect, "token %lld, expected %lld", token[0], expect);
    } else {
        MT_CHECK_RC(MPI_Recv(token.data(), 1, MPI_LONG_LONG, rank - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        token[0] += rank;
        MT_CHECK_RC(MPI_Send(token.data(), 1, MPI_LONG_LONG, (rank + 1) % size, 7, MPI_COMM_WORLD));
    }
}

} // namespace

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    const std::vector<std::size_t> sizes{1, 1000, 100000};
    int round = 0;
    for (std::size_t n : sizes) {
        ring_sendrecv(rank, size, n, round);
        ring_nonblocking(rank, size, n, round);
        ++round;
    }
    token_ring(rank, size);

    std::string name(MPI_MAX_PROCESSOR_NAME, '\0');
    int len = 0;
    MT_CHECK_RC(MPI_Get_processor_name(&name[0], &len));
    name.resize(static_cast<std::size_t>(len));
    MT_CHECK(!name.empty(), "empty processor name");
    return mt_finalize();
}
