// Info objects: ordered (key, value) string pairs (MPI 3.1, chapter 9).
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

}  // namespace hmpi
