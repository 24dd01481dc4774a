#include "core/rank.hpp"

namespace hmpi {

namespace rank_detail {
thread_local Rank* current __attribute__((tls_model("initial-exec"))) = nullptr;
}  // namespace rank_detail

namespace {
Job* g_job = nullptr;
thread_local bool t_rank_main __attribute__((tls_model("initial-exec"))) = false;
}  // namespace

Job& job() noexcept { return *g_job; }
Job* job_if_started() noexcept { return g_job; }
void install_job(Job* j) noexcept { g_job = j; }

void set_current_rank(Rank* r) noexcept { rank_detail::current = r; }
bool is_rank_main_thread() noexcept { return t_rank_main; }
void set_rank_main_thread(bool v) noexcept { t_rank_main = v; }

}  // namespace hmpi
