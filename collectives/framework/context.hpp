// CollCtx: what an algorithm sees of the collective it runs.
//
// The caller's arguments (call()), its rank and the communicator's size, the
// other members' arguments once they have arrived (args_of), and the flags
// of this collective's slot. Algorithms synchronize only through these
// flags (or through point-to-point messages on the communicator's internal
// context, for intercommunicators: core/p2p.hpp).
//
// Flags: each member has kFlagsPerSlot flags in the slot; flag 0 step 1 is
// "arrived" (published by the driver with the member's CollCall before the
// algorithm starts, for algorithms whose table entry says they read it:
// CollAlgorithm::arrival). Everything else is the algorithm's to define; it writes
// only its own flags (publish) and reads anyone's (reached). Steps must grow
// per flag within a collective (1..255).
//
// The lifetime rule every algorithm keeps: a rank's collective completes
// only once no other rank will read its buffers or its CollCall again (the
// acknowledgement MPI's buffer reuse requires). What it left in its flag
// payloads and inline area may still be read after it completes: the
// driver starts the slot's next collective on this rank (kSlots calls
// later), which may rewrite them, only once every member has released this
// one (CollMember::released_below).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>

#include "collectives/framework/call.hpp"
#include "collectives/framework/shared.hpp"
#include "core/comm.hpp"
#include "core/op.hpp"

namespace hmpi {
struct Rank;
}

namespace hmpi::coll {

struct ModelParams;

class CollCtx {
public:
    // `message_bytes`: the call's message size as the model counts it
    // (model/cost.hpp), computed once by the driver: the decision, the
    // algorithm's applicability and the algorithm all ask for it.
    CollCtx(Rank& self, Comm& comm, const CollCall& call, CollShared& shared, std::uint64_t seq,
            std::size_t message_bytes) noexcept
        : self_(self),
          comm_(comm),
          call_(call),
          shared_(shared),
          seq_(seq),
          slot_(static_cast<unsigned>(seq % kSlots)),
          released_bit_(member(comm.rank).released_below.load(std::memory_order_acquire) >= seq ? kReleasedBit : 0),
          message_bytes_(message_bytes),
          size_range_(size_range_of(message_bytes)),
          commutative_(!call.op || call.op->commutative) {}

    Rank& self() const noexcept { return self_; }
    Comm& comm() const noexcept { return comm_; }
    const CollCall& call() const noexcept { return call_; }
    int rank() const noexcept { return comm_.rank; }
    int size() const noexcept { return comm_.size(); }
    std::uint64_t seq() const noexcept { return seq_; }
    std::size_t message_bytes() const noexcept { return message_bytes_; }
    // What the decision and plans are cached by: the size range of
    // message_bytes() (registry.hpp) and whether the op (if any) commutes.
    int size_range() const noexcept { return size_range_; }
    bool commutative() const noexcept { return commutative_; }
    // The communicator side's collective state (its decision cache, for the registry).
    CollShared& shared() const noexcept { return shared_; }

    // Whether member `peer` has entered this collective (its args are published).
    bool arrived(int peer) const noexcept { return reached(peer, 0, 1); }
    // Member `peer`'s arguments; only after arrived(peer).
    const CollCall& args_of(int peer) const noexcept {
        return *member(peer).args[slot_].load(std::memory_order_acquire);
    }

    // Publishes this rank's flag `flag` at `step` and wakes the members
    // that may be waiting for it.
    void publish(unsigned flag, unsigned step) const noexcept;
    // The same, waking only member `peer` (when only it waits for the flag).
    void publish_to(unsigned flag, unsigned step, int peer) const noexcept;
    // Wakes the members that may wait for something this rank published
    // other than a flag (a work counter).
    void wake_others() const noexcept;
    // Whether member `peer`'s flag `flag` has reached `step` in this collective.
    // A value with kReleasedBit updates this rank's seen_released of `peer`.
    bool reached(int peer, unsigned flag, unsigned step) const noexcept {
        const std::uint64_t v = member(peer).flags[slot_][flag].load();
        if (v < stamp(seq_, step)) return false;
        if (v & kReleasedBit) note_released(peer, stamp_seq(v));
        return true;
    }
    // The same for every member (this one included).
    bool all_reached(unsigned flag, unsigned step) const noexcept { return all_reached_in(0, size(), flag, step); }
    // The same for members [first, last), `skip` (if any) left out. Every
    // flag is read, not only those up to the first that is missing: each
    // poll then pulls every line that has changed, all at once (the loads
    // do not wait on each other), and when the last member arrives its line
    // is the only miss left. Stopping at the first missing flag reads the
    // lines after it one miss after another once it comes. (16 ranks on a
    // 16-core Xeon: the flat barrier 7% and the inline Reduce 10-22% faster
    // than with the early stop; docs/performance-collectives.md, stop 15.)
    bool all_reached_in(int first, int last, unsigned flag, unsigned step, int skip = -1) const noexcept {
        int missing = 0;
        for (int r = first; r < last; ++r) missing += r != skip && !reached(r, flag, step);
        return missing == 0;
    }
    // The same for the members in `ranks` (anything with size() and [i]).
    template <class Ranks>
    bool all_reached_of(const Ranks& ranks, unsigned flag, unsigned step) const noexcept {
        int missing = 0;
        for (int i = 0; i < static_cast<int>(ranks.size()); ++i) missing += !reached(ranks[i], flag, step);
        return missing == 0;
    }

    // This rank's copy-in/copy-out area for this slot (inline_bytes(), 64-byte
    // aligned): write it, then publish the flag that announces it; readers
    // read it (inline_area_of) after that flag and until they release this
    // collective (the lifetime rule above keeps it until then).
    unsigned char* inline_area() const;
    // Null only before the peer made its area, so never once its data's
    // flag is seen.
    const unsigned char* inline_area_of(int peer) const noexcept {
        const unsigned char* area = member(peer).inline_area.load(std::memory_order_relaxed);
        return area ? area + slot_ * inline_bytes() : nullptr;
    }
    // The size of each member's area per slot on this communicator.
    std::size_t inline_bytes() const noexcept { return shared_.inline_bytes; }

    // This rank's stamped lines for this slot (inline_bytes(), 64-byte
    // aligned): cache lines whose first 8 bytes are a stamp (stamp(seq,
    // step), shared.hpp), stored last with release, the data after it, so a
    // reader that polls the stamp has the data in the same line. Only
    // stamped-line algorithms write here, so a stamp found here is this
    // collective's or an earlier one's and ">= stamp" means "written" (the
    // inline area may hold any bytes a previous collective left). Zero
    // when made; the lifetime rule above holds as for the inline area.
    unsigned char* stamped_area() const;
    // Member `peer`'s, null before the peer made it. Loaded with acquire
    // (its making is released), so a reader may poll it before any flag.
    const unsigned char* stamped_area_of(int peer) const noexcept {
        const unsigned char* area = member(peer).stamped_area.load(std::memory_order_acquire);
        return area ? area + slot_ * inline_bytes() : nullptr;
    }

    // Where the members sit: levels, groups, the Li-Hoefler shape.
    const CommTopology& topology() const noexcept { return shared_.topology; }
    // This call's choice of `plan` (plan.hpp), made at its size range's
    // representative size and cached on the communicator.
    std::uint32_t plan(const CollPlan& plan) const {
        const std::uint32_t cached =
            shared_.decisions.plans[plan.id()][commutative_ ? 1 : 0][size_range_].load(std::memory_order_relaxed);
        if ((cached >> kPlanValueBits) == static_cast<std::uint32_t>(call_.kind) + 1) [[likely]]
            return cached & ((std::uint32_t{1} << kPlanValueBits) - 1);
        return make_plan(plan);
    }
    // This rank's place in the tree over topology() (tree_place.hpp), from
    // its cache of recent ones. Ask before the algorithm's first wait (the
    // cache is the rank's own, safe while algorithms start in order).
    TreePlace tree_place(const TreeOptions& o) const {
        return member(rank()).tree_places.get(shared_.topology, rank(), o);
    }

    // The bytes that travel inline with this rank's flag `flag` (write them,
    // then publish the flag) and with member `peer`'s (read them after
    // reached() says the flag announcing them is there). kFlagPayloadBytes.
    unsigned char* payload(unsigned flag) const noexcept { return member(rank()).flags[slot_][flag].payload; }
    const unsigned char* payload_of(int peer, unsigned flag) const noexcept {
        return member(peer).flags[slot_][flag].payload;
    }

    // Offers a buffer of this rank's (e.g. a partial result in a
    // TypedScratch) to peers; publish the flag that announces it afterwards.
    void publish_scratch(const void* p) const noexcept {
        member(rank()).scratch[slot_].store(p, std::memory_order_relaxed);
    }
    // Member `peer`'s offered buffer; only after the flag announcing it.
    const void* scratch_of(int peer) const noexcept { return member(peer).scratch[slot_].load(std::memory_order_relaxed); }

    // Counter `i` (0 or 1) of member `owner`'s work counters for this slot:
    // any member may update them (a shared work queue). The owner sets them
    // before publishing the flag that announces the work; nobody uses them
    // after the collective.
    std::atomic<std::uint64_t>& work_counter(int owner, unsigned i) const noexcept {
        return member(owner).work[slot_].value[i];
    }

    // Point-to-point tags for this collective: distinct per collective in
    // flight (and below the communicator agreements' tags).
    int tag(unsigned step) const noexcept { return static_cast<int>(((seq_ << 4) | (step & 15)) & 0x3fffffff); }

private:
    CollMember& member(int r) const noexcept { return shared_.members[static_cast<std::size_t>(r)]; }
    std::uint32_t make_plan(const CollPlan& plan) const;
    // This rank's slot of one of its per-member areas (inline_area, stamped_area).
    unsigned char* own_slot_area(std::atomic<unsigned char*> CollMember::*areas,
                                 std::unique_ptr<NodeMemory> CollMember::*backing) const;
    // Member `peer` had released every collective below `below`. Threads of
    // this rank may store at once: a lower value winning costs only a
    // reload (driver.cpp, all_released_through).
    void note_released(int peer, std::uint64_t below) const noexcept {
        std::atomic<std::uint64_t>& seen = member(rank()).seen_released[static_cast<std::size_t>(peer)];
        if (seen.load(std::memory_order_relaxed) < below) seen.store(below, std::memory_order_release);
    }

    Rank& self_;
    Comm& comm_;
    const CollCall& call_;
    CollShared& shared_;
    std::uint64_t seq_;
    unsigned slot_;
    std::uint64_t released_bit_;  // kReleasedBit or 0, in every stamp this rank publishes
    std::size_t message_bytes_;
    int size_range_;
    bool commutative_;
};

// CollCtx::plan's lookup: `plan`'s choice for a call in size range `range`
// of collective `kind` on a communicator whose decision cache is `cache`,
// made with params() (asked only then) at the range's representative size
// if the cache has none for that collective. *stored (if given): whether
// this call made the choice and stored it (one caller of those that race).
std::uint32_t plan_choice(DecisionCache& cache, const CollPlan& plan, const ModelParams& (*params)(),
                          const CommTopology& topo, CollKind kind, bool commutative, int range,
                          bool* stored = nullptr);

// The call's message size (model/cost.hpp), as algorithms and their
// applicability tests ask for it.
inline std::size_t message_bytes(const CollCtx& ctx) noexcept { return ctx.message_bytes(); }

}  // namespace hmpi::coll
