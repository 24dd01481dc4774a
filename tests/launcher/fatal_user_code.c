/* A user error code raised with MPI_Comm_call_errhandler under the default
 * MPI_ERRORS_ARE_FATAL ends the job; the output must name rank 1, the call, the code's class
 * and the string added with MPI_Add_error_string. Rank 0 waits for a message that never comes.
 * Registered from tests/mpi/attrs.cmake (area "attributes and errors"). */
#include <mpi.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, x = 1, cls, code;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Add_error_class(&cls);
        MPI_Add_error_code(cls, &code);
        MPI_Add_error_string(code, "the flux capacitor overheated");
        MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
    } else {
        MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
