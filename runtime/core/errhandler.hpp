// Error handlers: the predefined ones (MPI_ERRORS_ARE_FATAL,
// MPI_ERRORS_RETURN, MPI_ERRORS_ABORT) are constants; user handlers
// (MPI_Comm_create_errhandler) are reference-counted objects, kept alive by
// every communicator they are attached to.
#pragma once
#include <mpi.h>

namespace hmpi {

// Reference counting of user handlers (no-ops for predefined ones).
void errhandler_retain(MPI_Errhandler h) noexcept;
void errhandler_release(MPI_Errhandler h) noexcept;

}  // namespace hmpi
