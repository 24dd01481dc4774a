// Virtual topologies: the arithmetic of Cartesian grids and graphs, the
// reordering of grids onto cache domains, and the collective constructors.
// See topology.hpp for the model and docs/topologies.md for what users see.
#include "core/topology.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <map>
#include <utility>

#include "base/config.hpp"
#include "base/topology.hpp"
#include "core/comm.hpp"
#include "core/rank.hpp"

namespace hmpi {

std::int64_t product_of(const int dims[], int ndims) noexcept {
    std::int64_t p = 1;
    for (int i = 0; i < ndims; ++i) {
        p *= dims[i];
        if (p > (std::int64_t{1} << 40)) return p;  // already far beyond any int; stop before overflowing
    }
    return p;
}

// ---- Dims_create ----------------------------------------------------------

namespace {

// The largest x with x^k <= n (k >= 1, n >= 1).
std::int64_t integer_root_floor(std::int64_t n, int k) {
    auto pow_le = [&](std::int64_t x) {  // x^k <= n, without overflow
        __int128 p = 1;
        for (int i = 0; i < k; ++i) {
            p *= x;
            if (p > n) return false;
        }
        return true;
    };
    std::int64_t lo = 1, hi = n;
    while (lo < hi) {
        std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (pow_le(mid)) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

// The smallest x with x^k >= n.
std::int64_t integer_root_ceil(std::int64_t n, int k) {
    std::int64_t r = integer_root_floor(n, k);
    __int128 p = 1;
    for (int i = 0; i < k; ++i) p *= r;
    return p == n ? r : r + 1;
}

// Branch-and-bound search for the most balanced factorization of m into k
// factors, f[0] >= f[1] >= ... >= f[k-1], drawing factors from the divisors
// of m. "Most balanced" is the smallest f[0] - f[k-1], then the smallest sum
// of squares. Without pruning, highly composite m with many factors would
// make the enumeration explode; the bounds below keep it to a few thousand
// nodes for any int.
class BalancedFactorization {
public:
    BalancedFactorization(std::int64_t m, int k) : k_(k), current_(static_cast<std::size_t>(k)) {
        for (std::int64_t d = 1; d * d <= m; ++d) {
            if (m % d) continue;
            divisors_.push_back(d);
            if (d * d != m) divisors_.push_back(m / d);
        }
        std::sort(divisors_.begin(), divisors_.end());
        search(0, m, m, 0);
    }
    const std::vector<std::int64_t>& best() const { return best_; }

private:
    // Choose factor `pos` given the remaining product and the previous factor.
    void search(int pos, std::int64_t remaining, std::int64_t previous, std::int64_t sum_squares) {
        int left = k_ - pos;
        if (left == 1) {
            if (remaining > previous) return;
            current_[static_cast<std::size_t>(pos)] = remaining;
            consider(sum_squares + remaining * remaining);
            return;
        }
        // This factor is the largest of the `left` still to choose, so
        // factor^left >= remaining; and it may not exceed the previous one.
        std::int64_t lowest = integer_root_ceil(remaining, left);
        auto it = std::lower_bound(divisors_.begin(), divisors_.end(), lowest);
        for (; it != divisors_.end() && *it <= previous && *it <= remaining; ++it) {
            std::int64_t f = *it;
            if (remaining % f) continue;
            std::int64_t largest = pos == 0 ? f : current_[0];
            // The smallest factor will be at most f and at most the
            // (left-1)-th root of what remains after f.
            std::int64_t smallest_bound = std::min(f, integer_root_floor(remaining / f, left - 1));
            // Both bounds only get worse as f grows (f^left >= remaining
            // makes the root the binding one), so stop at the first miss.
            if (have_best_ && largest - smallest_bound > best_spread_) break;
            current_[static_cast<std::size_t>(pos)] = f;
            search(pos + 1, remaining / f, f, sum_squares + f * f);
        }
    }

    void consider(std::int64_t sum_squares) {
        std::int64_t spread = current_.front() - current_.back();
        if (!have_best_ || spread < best_spread_ || (spread == best_spread_ && sum_squares < best_sum_squares_)) {
            have_best_ = true;
            best_spread_ = spread;
            best_sum_squares_ = sum_squares;
            best_ = current_;
        }
    }

    int k_;
    std::vector<std::int64_t> divisors_;
    std::vector<std::int64_t> current_;
    std::vector<std::int64_t> best_;
    bool have_best_ = false;
    std::int64_t best_spread_ = 0;
    std::int64_t best_sum_squares_ = 0;
};

}  // namespace

void dims_fill(int nnodes, int ndims, int dims[]) {
    std::int64_t fixed = 1;
    int free_count = 0;
    for (int i = 0; i < ndims; ++i) {
        if (dims[i] > 0) fixed *= dims[i];
        else ++free_count;
    }
    if (free_count == 0) return;
    BalancedFactorization search(nnodes / fixed, free_count);
    std::size_t next = 0;
    for (int i = 0; i < ndims; ++i)
        if (dims[i] == 0) dims[i] = static_cast<int>(search.best()[next++]);
}

// ---- Cartesian arithmetic --------------------------------------------------

int cart_rank_of(const std::vector<int>& dims, const std::vector<char>& periods, const int coords[]) noexcept {
    int rank = 0;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        int c = coords[i];
        if (c < 0 || c >= dims[i]) {
            if (!periods[i]) return -1;
            c %= dims[i];
            if (c < 0) c += dims[i];
        }
        rank = rank * dims[i] + c;
    }
    return rank;
}

void cart_coords_of(const std::vector<int>& dims, int rank, int coords[]) noexcept {
    for (std::size_t i = dims.size(); i-- > 0;) {
        coords[i] = rank % dims[i];
        rank /= dims[i];
    }
}

void cart_shift_of(const std::vector<int>& dims, const std::vector<char>& periods, int rank, int direction, int disp,
                   int* source, int* dest) noexcept {
    std::vector<int> coords(dims.size());
    cart_coords_of(dims, rank, coords.data());
    const int here = coords[static_cast<std::size_t>(direction)];
    auto along = [&](std::int64_t c) {
        const int extent = dims[static_cast<std::size_t>(direction)];
        if (c < 0 || c >= extent) {
            if (!periods[static_cast<std::size_t>(direction)]) return int{MPI_PROC_NULL};
            c %= extent;
            if (c < 0) c += extent;
        }
        coords[static_cast<std::size_t>(direction)] = static_cast<int>(c);
        int r = cart_rank_of(dims, periods, coords.data());
        coords[static_cast<std::size_t>(direction)] = here;
        return r;
    };
    *dest = along(std::int64_t{here} + disp);
    *source = along(std::int64_t{here} - disp);
}

// ---- Reordering onto cache domains ----------------------------------------

std::int64_t cart_cross_domain_pairs(const std::vector<int>& dims, const std::vector<char>& periods,
                                     const std::vector<int>& domain_of_cell) {
    const int cells = static_cast<int>(domain_of_cell.size());
    std::vector<int> coords(dims.size());
    std::int64_t cross = 0;
    for (int cell = 0; cell < cells; ++cell) {
        cart_coords_of(dims, cell, coords.data());
        // Each cell's neighbour one step up each dimension: every neighbour
        // pair counted once (twice in a periodic dimension of extent 2, where
        // the two shifts reach the same process twice, as traffic does).
        for (std::size_t i = 0; i < dims.size(); ++i) {
            if (dims[i] == 1) continue;
            int c = coords[i];
            if (c + 1 == dims[i] && !periods[i]) continue;
            coords[i] = (c + 1) % dims[i];
            int next = cart_rank_of(dims, periods, coords.data());
            coords[i] = c;
            if (domain_of_cell[static_cast<std::size_t>(cell)] != domain_of_cell[static_cast<std::size_t>(next)]) ++cross;
        }
    }
    return cross;
}

namespace {

// Every block shape (b[i] divides dims[i], product of b = volume), in a fixed order.
void block_shapes(const std::vector<int>& dims, std::size_t dim, int volume, std::vector<int>& shape,
                  std::vector<std::vector<int>>& out) {
    if (dim == dims.size()) {
        if (volume == 1) out.push_back(shape);
        return;
    }
    for (int b = 1; b <= dims[dim] && b <= volume; ++b) {
        if (dims[dim] % b || volume % b) continue;
        shape[dim] = b;
        block_shapes(dims, dim + 1, volume / b, shape, out);
    }
}

// The block (row-major over the grid of blocks) that contains each cell.
std::vector<int> block_of_cells(const std::vector<int>& dims, const std::vector<int>& shape, int cells) {
    std::vector<int> block(static_cast<std::size_t>(cells));
    std::vector<int> coords(dims.size());
    for (int cell = 0; cell < cells; ++cell) {
        cart_coords_of(dims, cell, coords.data());
        int b = 0;
        for (std::size_t i = 0; i < dims.size(); ++i) b = b * (dims[i] / shape[i]) + coords[i] / shape[i];
        block[static_cast<std::size_t>(cell)] = b;
    }
    return block;
}

}  // namespace

std::vector<int> cart_reorder(const std::vector<int>& dims, const std::vector<char>& periods,
                              const std::vector<int>& domain_of_member) {
    const int members = static_cast<int>(domain_of_member.size());
    std::vector<int> identity(static_cast<std::size_t>(members));
    for (int m = 0; m < members; ++m) identity[static_cast<std::size_t>(m)] = m;
    if (dims.empty() || product_of(dims.data(), static_cast<int>(dims.size())) != members) return identity;

    // Domains in order of their first member, each with its members in rank order.
    std::vector<std::vector<int>> domains;
    std::map<int, std::size_t> slot_of_domain;
    for (int m = 0; m < members; ++m) {
        auto [it, fresh] = slot_of_domain.try_emplace(domain_of_member[static_cast<std::size_t>(m)], domains.size());
        if (fresh) domains.emplace_back();
        domains[it->second].push_back(m);
    }
    const std::size_t per_domain = domains.front().size();
    if (domains.size() < 2 || per_domain < 2) return identity;
    for (const auto& d : domains)
        if (d.size() != per_domain) return identity;

    std::vector<std::vector<int>> shapes;
    std::vector<int> shape(dims.size());
    block_shapes(dims, 0, static_cast<int>(per_domain), shape, shapes);

    std::int64_t best_cost = cart_cross_domain_pairs(dims, periods, domain_of_member);
    const std::vector<int>* best_shape = nullptr;
    std::vector<int> best_blocks;
    for (const auto& s : shapes) {
        std::vector<int> blocks = block_of_cells(dims, s, members);
        // Block j goes to the j-th domain; its cells' domains are the block numbers.
        std::int64_t cost = cart_cross_domain_pairs(dims, periods, blocks);
        if (cost < best_cost) {
            best_cost = cost;
            best_shape = &s;
            best_blocks = std::move(blocks);
        }
    }
    if (!best_shape) return identity;

    // Fill each block's cells (ascending cell order is row-major inside the
    // block too) with its domain's members in rank order.
    std::vector<int> new_rank(static_cast<std::size_t>(members));
    std::vector<std::size_t> filled(domains.size(), 0);
    for (int cell = 0; cell < members; ++cell) {
        auto block = static_cast<std::size_t>(best_blocks[static_cast<std::size_t>(cell)]);
        new_rank[static_cast<std::size_t>(domains[block][filled[block]++])] = cell;
    }
    return new_rank;
}

std::vector<int> cache_domains_of_members(const Comm& comm) {
    if (config().bind != BindPolicy::core) return {};
    std::vector<int> domains(static_cast<std::size_t>(comm.size()));
    for (int m = 0; m < comm.size(); ++m) domains[static_cast<std::size_t>(m)] = topology_cache_domain_of_core(comm.world_rank(m));
    return domains;
}

int cart_map(const Comm& comm, const std::vector<int>& dims, const std::vector<char>& periods) {
    const std::int64_t nnodes = product_of(dims.data(), static_cast<int>(dims.size()));
    if (comm.rank >= nnodes) return MPI_UNDEFINED;
    if (nnodes != comm.size()) return comm.rank;
    std::vector<int> domains = cache_domains_of_members(comm);
    if (domains.empty()) return comm.rank;
    return cart_reorder(dims, periods, domains)[static_cast<std::size_t>(comm.rank)];
}

// ---- Constructors ------------------------------------------------------------

namespace {

// Splits off the members that take part, ordered by key, and gives the
// caller's new communicator its topology.
int split_with_topology(Rank& self, Comm& old, bool member, int key, std::shared_ptr<const Topology> topo, Comm** out) {
    *out = nullptr;
    Comm* created = nullptr;
    if (int e = comm_split(self, old, member ? 0 : MPI_UNDEFINED, key, &created)) return e;
    if (created) created->topology = std::move(topo);
    *out = created;
    return MPI_SUCCESS;
}

}  // namespace

int cart_create(Rank& self, Comm& old, std::vector<int> dims, std::vector<char> periods, bool reorder, Comm** out) {
    const std::int64_t nnodes = product_of(dims.data(), static_cast<int>(dims.size()));
    const bool member = old.rank < nnodes;
    int key = old.rank;
    if (member && reorder) key = cart_map(old, dims, periods);
    auto topo = std::make_shared<Topology>();
    topo->kind = TopologyKind::cart;
    topo->dims = std::move(dims);
    topo->periods = std::move(periods);
    return split_with_topology(self, old, member, key, member ? std::move(topo) : nullptr, out);
}

int cart_sub(Rank& self, Comm& cart, const int remain_dims[], Comm** out) {
    const Topology& t = *cart.topology;
    std::vector<int> coords(t.dims.size());
    cart_coords_of(t.dims, cart.rank, coords.data());
    // Members that agree on every dropped coordinate share a subgrid; the
    // color numbers the subgrid (row-major over the dropped dimensions), and
    // the Cartesian rank as key keeps row-major order inside it.
    int color = 0;
    auto topo = std::make_shared<Topology>();
    topo->kind = TopologyKind::cart;
    for (std::size_t i = 0; i < t.dims.size(); ++i) {
        if (remain_dims[i]) {
            topo->dims.push_back(t.dims[i]);
            topo->periods.push_back(t.periods[i]);
        } else {
            color = color * t.dims[i] + coords[i];
        }
    }
    Comm* created = nullptr;
    if (int e = comm_split(self, cart, color, cart.rank, &created)) return e;
    created->topology = std::move(topo);
    *out = created;
    return MPI_SUCCESS;
}

int graph_create(Rank& self, Comm& old, std::vector<int> index, std::vector<int> edges, bool /*reorder*/, Comm** out) {
    const int nnodes = static_cast<int>(index.size());
    const bool member = old.rank < nnodes;
    auto topo = std::make_shared<Topology>();
    topo->kind = TopologyKind::graph;
    topo->index = std::move(index);
    topo->edges = std::move(edges);
    return split_with_topology(self, old, member, old.rank, member ? std::move(topo) : nullptr, out);
}

int dist_graph_create_adjacent(Rank& self, Comm& old, std::vector<int> sources, std::vector<int> source_weights,
                               std::vector<int> destinations, std::vector<int> destination_weights, bool weighted,
                               bool /*reorder*/, Comm** out) {
    auto topo = std::make_shared<Topology>();
    topo->kind = TopologyKind::dist_graph;
    topo->sources = std::move(sources);
    topo->destinations = std::move(destinations);
    topo->weighted = weighted;
    if (weighted) {
        topo->source_weights = std::move(source_weights);
        topo->destination_weights = std::move(destination_weights);
    }
    return split_with_topology(self, old, true, old.rank, std::move(topo), out);
}

int dist_graph_create(Rank& self, Comm& old, const std::vector<int>& edge_sources,
                      const std::vector<int>& edge_destinations, const std::vector<int>& edge_weights, bool weighted,
                      bool /*reorder*/, Comm** out) {
    // Every member publishes [weighted, then (source, destination, weight)
    // per edge]; each then keeps the edges that end or start at itself, in
    // the order of the member that named them, then of that member's list.
    std::vector<int> mine;
    mine.reserve(1 + 3 * edge_sources.size());
    mine.push_back(weighted ? 1 : 0);
    for (std::size_t k = 0; k < edge_sources.size(); ++k) {
        mine.push_back(edge_sources[k]);
        mine.push_back(edge_destinations[k]);
        mine.push_back(weighted ? edge_weights[k] : 1);
    }
    std::vector<std::vector<unsigned char>> all = comm_allgatherv(self, old, mine.data(), mine.size() * sizeof(int));

    auto topo = std::make_shared<Topology>();
    topo->kind = TopologyKind::dist_graph;
    // MPI_UNWEIGHTED anywhere makes the graph unweighted (the standard
    // requires all members to agree; this keeps every member's answer alike).
    bool all_weighted = true;
    for (const auto& bytes : all) {
        int flag = 1;
        if (bytes.size() >= sizeof(int)) std::memcpy(&flag, bytes.data(), sizeof(int));
        all_weighted = all_weighted && flag != 0;
    }
    topo->weighted = all_weighted;
    for (const auto& bytes : all) {
        const std::size_t ints = bytes.size() / sizeof(int);
        std::vector<int> edges(ints);
        if (ints) std::memcpy(edges.data(), bytes.data(), ints * sizeof(int));
        for (std::size_t k = 1; k + 3 <= ints; k += 3) {
            const int from = edges[k], to = edges[k + 1], weight = edges[k + 2];
            if (to == old.rank) {
                topo->sources.push_back(from);
                if (all_weighted) topo->source_weights.push_back(weight);
            }
            if (from == old.rank) {
                topo->destinations.push_back(to);
                if (all_weighted) topo->destination_weights.push_back(weight);
            }
        }
    }
    return split_with_topology(self, old, true, old.rank, std::move(topo), out);
}

}  // namespace hmpi
