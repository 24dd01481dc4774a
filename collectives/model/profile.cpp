// Model parameters: the built-in default and profile files (params.hpp).
// Placeholder until profiles are read: always the default.
#include <mutex>

#include "collectives/model/params.hpp"

namespace hmpi::coll {

ModelParams default_model_params() {
    ModelParams p;
    p.alpha = {300, 4, 5, 8, 10};
    p.beta = {600, 8, 10, 12, 14};
    p.copy_bandwidth = 8;
    p.nt_copy_bandwidth = 10;
    p.topology_key = machine_topology_key();
    p.source = "built-in default";
    return p;
}

std::string format_profile(const ModelParams&) { return {}; }
std::optional<ModelParams> parse_profile(std::string_view, std::string* error) {
    if (error) *error = "profiles are not read yet";
    return std::nullopt;
}
std::string machine_topology_key() { return "unknown"; }

namespace {
std::mutex params_lock;
ModelParams* current = nullptr;
}  // namespace

const ModelParams& model_params() {
    std::lock_guard g(params_lock);
    if (!current) current = new ModelParams(default_model_params());
    return *current;
}

void set_model_params(ModelParams p) {
    std::lock_guard g(params_lock);
    current = new ModelParams(std::move(p));  // the old one may still be read; kept
}

}  // namespace hmpi::coll
