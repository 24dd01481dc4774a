// Publishing flags and waking the members that wait for them; plans.
#include "collectives/framework/context.hpp"

#include <memory>

#include "base/config.hpp"
#include "base/log.hpp"
#include "collectives/framework/registry.hpp"
#include "collectives/model/cost.hpp"
#include "core/rank.hpp"

namespace hmpi::coll {

void CollCtx::publish(unsigned flag, unsigned step) const noexcept {
    member(rank()).flags[slot_][flag].publish(stamp(seq_, step) | released_bit_);
    // A waiter parks on its own doorbell after checking the flags.
    ring_others(shared_, rank());
}

void CollCtx::wake_others() const noexcept { ring_others(shared_, rank()); }

void CollCtx::publish_to(unsigned flag, unsigned step, int peer) const noexcept {
    member(rank()).flags[slot_][flag].publish(stamp(seq_, step) | released_bit_);
    if (peer != rank()) member(peer).rank->doorbell.ring();
}

// Made on first use by the member, on its NUMA node. Two threads of the
// rank may get here at once: one area wins, the other is freed. Released,
// so a reader that loads the pointer with acquire sees the zeroed memory.
unsigned char* CollCtx::own_slot_area(std::atomic<unsigned char*> CollMember::*areas,
                                      std::unique_ptr<NodeMemory> CollMember::*backing) const {
    CollMember& me = member(rank());
    unsigned char* area = (me.*areas).load(std::memory_order_acquire);
    if (!area) [[unlikely]] {
        const CommTopology& topo = topology();
        const auto r = static_cast<std::size_t>(rank());
        auto made = std::make_unique<NodeMemory>(kSlots * inline_bytes(), 64,
                                                 r < topo.places.size() ? topo.places[r].numa : -1);
        auto* fresh = static_cast<unsigned char*>(made->data());
        if ((me.*areas).compare_exchange_strong(area, fresh, std::memory_order_acq_rel, std::memory_order_acquire)) {
            me.*backing = std::move(made);
            area = fresh;
        }
    }
    return area + slot_ * inline_bytes();
}

unsigned char* CollCtx::inline_area() const {
    return own_slot_area(&CollMember::inline_area, &CollMember::inline_memory);
}

unsigned char* CollCtx::stamped_area() const {
    return own_slot_area(&CollMember::stamped_area, &CollMember::stamped_memory);
}

namespace {
// Constant-initialized, so plans defined at namespace scope in any
// translation unit may take ids during static initialization.
std::atomic<int> next_plan_id{0};
}  // namespace

CollPlan::CollPlan(Make make, Describe describe) noexcept
    : make_(make), describe_(describe), id_(next_plan_id.fetch_add(1, std::memory_order_relaxed)) {
    if (id_ >= kMaxPlans) die("internal error: more than %d collective plans (plan.hpp, kMaxPlans)", kMaxPlans);
}

std::uint32_t plan_choice(DecisionCache& cache, const CollPlan& plan, const ModelParams& (*params)(),
                          const CommTopology& topo, CollKind kind, bool commutative, int range, bool* stored) {
    const std::uint32_t tag = (static_cast<std::uint32_t>(kind) + 1) << kPlanValueBits;
    constexpr std::uint32_t value_mask = (std::uint32_t{1} << kPlanValueBits) - 1;
    std::atomic<std::uint32_t>& entry = cache.plans[plan.id()][commutative ? 1 : 0][range];
    std::uint32_t cached = entry.load(std::memory_order_relaxed);
    if (stored) *stored = false;
    if ((cached & ~value_mask) == tag) [[likely]]
        return cached & value_mask;
    const std::uint32_t made =
        plan.make()(CostQuery{params(), topo, kind, size_range_representative(range), commutative});
    if (made > value_mask)
        die("internal error: a collective plan's choice %u needs more than %u bits", made, kPlanValueBits);
    // Whichever rank stores first (or again, after another collective's
    // tag) says so once; the others made the same choice.
    const bool won = entry.compare_exchange_strong(cached, tag | made, std::memory_order_relaxed);
    if (stored) *stored = won;
    return made;
}

std::uint32_t CollCtx::make_plan(const CollPlan& plan) const {
    bool stored = false;
    const std::uint32_t made =
        plan_choice(shared_.decisions, plan, &model_params, topology(), call_.kind, commutative_, size_range_, &stored);
    if (stored && config().explain && size() > 1) explain_range(*this, plan.describe()(made));
    return made;
}

}  // namespace hmpi::coll
