// Built at test time with hmpicxx (compile-and-run.sh): C++ with the standard library. Every rank
// but 0 sends rank 0 a greeting; rank 0 checks them all and prints "No Errors".
#include <mpi.h>

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    auto greeting = [](int r) { return "hello from rank " + std::to_string(r); };

    if (rank != 0) {
        std::string text = greeting(rank);
        MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    } else {
        int errors = 0;
        std::vector<std::string> received;
        for (int r = 1; r < size; ++r) {
            std::string text(64, '\0');
            MPI_Status status;
            MPI_Recv(text.data(), static_cast<int>(text.size()), MPI_CHAR, r, 0, MPI_COMM_WORLD, &status);
            int count = 0;
            MPI_Get_count(&status, MPI_CHAR, &count);
            text.resize(static_cast<std::size_t>(count));
            received.push_back(text);
        }
        for (int r = 1; r < size; ++r) {
            if (received[static_cast<std::size_t>(r - 1)] != greeting(r)) {
                std::cout << "from rank " << r << ": '" << received[static_cast<std::size_t>(r - 1)] << "'\n";
                ++errors;
            }
        }
        if (errors == 0) std::cout << "No Errors\n";
        else std::cout << "Found " << errors << " errors\n";
    }
    MPI_Finalize();
    return 0;
}
