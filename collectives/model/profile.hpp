// Where model profiles live (docs/model.md, "Profile files"): what
// hmpi-calibrate and the runtime share beyond params.hpp.
#pragma once
#include <string>

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

}  // namespace hmpi::coll
