// Where model profiles live (docs/model.md, "Profile files"): what
// hmpi-calibrate and the runtime share beyond params.hpp.
#pragma once
#include <optional>
#include <string>

#include "collectives/model/params.hpp"

namespace hmpi::coll {

// "profile-<key>.txt" with every character other than letters, digits, '.'
// and '-' replaced by '_'.
std::string profile_file_name(const std::string& topology_key);

// ${XDG_CACHE_HOME:-$HOME/.cache}/hmpi (/tmp/hmpi without either).
std::string default_profile_dir();

// default_profile_dir()/profile_file_name(machine_topology_key()): where
// hmpi-calibrate writes by default and the runtime looks unless
// HMPI_PROFILE names a file.
std::string default_profile_path();

// Reads and parses the profile file at `path`, whatever machine measured
// it. On failure *error says why ("cannot be read: <reason>" or "is not a
// valid profile: <reason>") and *open_errno (if given) is the open's errno,
// 0 when the file was read but is not valid.
std::optional<ModelParams> read_profile(const std::string& path, std::string* error, int* open_errno = nullptr);

}  // namespace hmpi::coll
