#include "core/rank.hpp"

namespace hmpi {

namespace {
Job* g_job = nullptr;
// initial-exec: a signal handler may read it, and a fiber switch will write it.
thread_local Rank* t_current_rank __attribute__((tls_model("initial-exec"))) = nullptr;
thread_local bool t_rank_main __attribute__((tls_model("initial-exec"))) = false;
}  // namespace

Job& job() noexcept { return *g_job; }
Job* job_if_started() noexcept { return g_job; }
void install_job(Job* j) noexcept { g_job = j; }

Rank* current_rank() noexcept { return t_current_rank; }
void set_current_rank(Rank* r) noexcept { t_current_rank = r; }
bool is_rank_main_thread() noexcept { return t_rank_main; }
void set_rank_main_thread(bool v) noexcept { t_rank_main = v; }

}  // namespace hmpi
