// The cache domains a two-stage algorithm works in (Li, Hoefler et al.,
// Sections 2.2 and 2.6): the groups of the communicator topology's domain
// level (levels.hpp, CommTopology::domain_level), each with a leader that
// talks to the root on behalf of its domain. The root leads its own domain
// (whatever its rank), every other domain is led by its lowest rank
// (LevelGroup::members[0]).
//
// With one cache domain (s == 1, no domain level) there is one group of
// every rank and the two-stage algorithms degenerate to one stage.
// (Tests make up domains on a one-domain machine with
// HMPI_TEST_DOMAIN_RANKS, levels.cpp.)
#pragma once
#include <algorithm>

#include "collectives/framework/context.hpp"

namespace hmpi::coll {

class DomainView {
public:
    DomainView(const CollCtx& ctx, int root) noexcept : root_(root), p_(ctx.size()) {
        const CommTopology& t = ctx.topology();
        if (t.domain_level >= 0 && static_cast<std::size_t>(t.domain_level) < t.levels.size() &&
            static_cast<int>(t.levels[static_cast<std::size_t>(t.domain_level)].group_of.size()) == p_)
            level_ = &t.levels[static_cast<std::size_t>(t.domain_level)];
        else
            block_ = p_;
    }

    // Number of domains.
    int count() const noexcept {
        return level_ ? static_cast<int>(level_->groups.size()) : (p_ + block_ - 1) / block_;
    }
    int domain_of(int r) const noexcept { return level_ ? level_->group_of[static_cast<std::size_t>(r)] : r / block_; }
    int size_of(int d) const noexcept {
        return level_ ? static_cast<int>(level_->groups[static_cast<std::size_t>(d)].members.size())
                      : std::min(p_, (d + 1) * block_) - d * block_;
    }
    // Member i of domain d (ascending ranks).
    int member(int d, int i) const noexcept {
        return level_ ? level_->groups[static_cast<std::size_t>(d)].members[static_cast<std::size_t>(i)] : d * block_ + i;
    }
    // Position of rank r in its domain.
    int index_of(int r) const noexcept {
        const int d = domain_of(r);
        for (int i = 0, n = size_of(d); i < n; ++i)
            if (member(d, i) == r) return i;
        return 0;
    }
    // Who leads domain d: the root in its own domain, else the lowest rank.
    int leader(int d) const noexcept { return d == domain_of(root_) ? root_ : member(d, 0); }
    int leader_of(int r) const noexcept { return leader(domain_of(r)); }
    bool is_leader(int r) const noexcept { return leader_of(r) == r; }

private:
    int root_, p_;
    const TopoLevel* level_ = nullptr;
    int block_ = 1;
};

}  // namespace hmpi::coll
