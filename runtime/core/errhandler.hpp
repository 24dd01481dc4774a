// Error handlers: the predefined ones (MPI_ERRORS_ARE_FATAL,
// MPI_ERRORS_RETURN, MPI_ERRORS_ABORT) are constants; user handlers
// (MPI_Comm_create_errhandler) are reference-counted objects, kept alive by
// every communicator they are attached to.
//
// Also the user-defined error classes and codes (MPI_Add_error_class/code/
// string, MPI 3.1 section 8.5): one table for the process, shared by all
// ranks and synchronized. New classes and codes are numbered from
// MPI_ERR_LASTCODE + 1 upward, in one sequence.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>

#include "base/refcount.hpp"

namespace hmpi {

// Reference counting of user handlers (no-ops for predefined ones).
void errhandler_retain(MPI_Errhandler h) noexcept;
void errhandler_release(MPI_Errhandler h) noexcept;

// The kinds of object a user handler may be attached to.
enum class ErrhandlerKind : std::uint8_t { comm, win, file };

struct Errhandler {
    static constexpr std::uint32_t kMagic = 0x4552484e;  // "ERHN"
    std::uint32_t magic = kMagic;
    ErrhandlerKind kind = ErrhandlerKind::comm;
    MPI_Comm_errhandler_function* comm_fn = nullptr;
    // The user's handle, one per MPI_Comm_get_errhandler result, and one per
    // communicator it is attached to.
    RefCount refs;
};

bool errhandler_is_predefined(MPI_Errhandler h) noexcept;
// The user handler behind a handle, or nullptr (predefined, null, garbage).
Errhandler* errhandler_from_handle(MPI_Errhandler h) noexcept;
// A valid handler for a communicator: predefined (not MPI_ERRHANDLER_NULL) or a comm-kind user handler.
bool errhandler_valid_for_comm(MPI_Errhandler h) noexcept;
// A new user handler with one reference (the user's handle).
MPI_Errhandler errhandler_create_comm(MPI_Comm_errhandler_function* fn);

// ---- User error classes and codes.
// MPI_ERR_LASTCODE + 1, ...: a new class (MPI_ERR_OTHER when exhausted).
int error_add_class(int* cls) noexcept;
// A new code of class `cls`; MPI_ERR_ARG when `cls` is not a class.
int error_add_code(int cls, int* code) noexcept;
// Associates a string with a user class or code; MPI_ERR_ARG for
// predefined or unknown codes.
int error_add_string(int code, const char* text);
// The class of a valid code (predefined or user); false when not valid.
bool error_class_of(int code, int* cls) noexcept;
// Whether `code` is a user class or code, and its string ("" when none was added).
bool error_user_string(int code, std::string* text);
// The largest error class or code in use (>= MPI_ERR_LASTCODE), as an int
// that stays at this address; written under the table's lock with atomic
// stores: read it with __atomic_load_n.
int* error_last_used_code() noexcept;

}  // namespace hmpi
