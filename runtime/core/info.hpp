// Info objects: ordered (key, value) string pairs (MPI 3.1, chapter 9).
//
// An info object is made by one rank and changed only by it, but any thread
// may read it: no lock. MPI_INFO_ENV is one read-only object for the whole
// process, built on first use.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hmpi {

struct Info {
    static constexpr std::uint32_t kMagic = 0x494e464f;  // "INFO"
    std::uint32_t magic = kMagic;
    std::vector<std::pair<std::string, std::string>> entries;  // in insertion order, keys unique
};

// The info object behind a handle, or nullptr (MPI_INFO_NULL included;
// MPI_INFO_ENV resolves to the job's environment info).
Info* info_from_handle(MPI_Info h) noexcept;

// Whether `info` is MPI_INFO_ENV's object (read-only, never freed).
bool info_is_env(const Info* info) noexcept;

// Handles of user info objects.
inline MPI_Info info_to_handle(Info* info) noexcept { return reinterpret_cast<MPI_Info>(info); }
// Frees a user info object (not MPI_INFO_ENV's).
void info_destroy(Info* info) noexcept;

// Lookups by key: the value, or nullptr.
const std::string* info_find(const Info& info, const char* key) noexcept;
// Sets or replaces a key's value (a new key goes last).
void info_set(Info& info, const char* key, const char* value);
// Removes a key; false when it is not there.
bool info_remove(Info& info, const char* key);

}  // namespace hmpi
