// Creating communicators: the internal agreement among members, context id
// allocation, and dup / idup / split / create / create_group / intercomm
// create and merge on top of them.
//
// Agreement is local to the members: they exchange small messages over the
// parent communicator's internal context (context_id + 1) with ordinary
// point-to-point; nothing process-wide is locked while a rank waits. A
// leader (rank 0, or the caller's leader for intercommunicators) gathers
// what it needs, allocates context ids (allocate_context_ids, the one place
// that does) and sends the outcome to the others.
//
// Every agreement is written once, as a C++20 coroutine (Task) that starts
// internal sends and receives and suspends until they complete. A blocking
// call drives it from wait_until; MPI_Comm_idup drives the same coroutine
// from an AsyncOp, so the nonblocking form never waits inside the call.
//
// Tags on the internal context: an agreement collective over all members
// of a communicator takes tag kSequencedTags + its sequence number on that
// communicator (Comm::agreement_seq, which every member advances alike);
// those over a subset (MPI_Comm_create_group, the leaders' exchange of
// MPI_Intercomm_create) take a negative tag made from the user's tag. Two
// agreements in flight at once on one communicator (an idup, then a split)
// thus never take each other's messages. Tags below kSequencedTags are left
// for the collectives to come.
#include <algorithm>
#include <coroutine>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

#include "base/log.hpp"
#include "base/topology.hpp"
#include "core/comm.hpp"
#include "core/errhandler.hpp"
#include "core/p2p.hpp"
#include "core/rank.hpp"

namespace hmpi {

namespace {

using Bytes = std::vector<unsigned char>;

// ---- A minimal lazy coroutine: step() runs it to its next suspension.
//
// Sub-agreements are tasks too; a parent steps its child each time it is
// itself stepped (AWAIT below), so the driver only ever steps the outermost.

template <class T>
class [[nodiscard]] Task {
public:
    struct promise_type {
        std::optional<T> value;
        Task get_return_object() { return Task(std::coroutine_handle<promise_type>::from_promise(*this)); }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        void return_value(T v) { value.emplace(std::move(v)); }
        void unhandled_exception() noexcept { std::terminate(); }
    };

    Task(Task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
    Task& operator=(Task&&) = delete;
    ~Task() {
        if (h_) h_.destroy();
    }

    // Runs until the next suspension; true once finished.
    bool step() {
        if (!h_.done()) h_.resume();
        return h_.done();
    }
    T take() { return std::move(*h_.promise().value); }

private:
    explicit Task(std::coroutine_handle<promise_type> h) noexcept : h_(h) {}
    std::coroutine_handle<promise_type> h_;
};

// Inside a Task: runs sub-task `expr` to completion, then `type var` holds its value.
#define AWAIT(type, var, expr)                                     \
    auto var##_task = (expr);                                      \
    while (!var##_task.step()) co_await std::suspend_always{};     \
    type var = var##_task.take()

// Runs a task to completion from a blocking call.
template <class T>
T run_blocking(Rank& self, Task<T> t) {
    wait_until(self, [&] { return t.step(); });
    return t.take();
}

// ---- Byte strings.

void put_u32(Bytes& b, std::uint32_t v) {
    unsigned char raw[4];
    std::memcpy(raw, &v, 4);
    b.insert(b.end(), raw, raw + 4);
}
void put_i32(Bytes& b, int v) { put_u32(b, static_cast<std::uint32_t>(v)); }
void put_ints(Bytes& b, const std::vector<int>& v) {
    put_u32(b, static_cast<std::uint32_t>(v.size()));
    for (int x : v) put_i32(b, x);
}

class Reader {
public:
    explicit Reader(const Bytes& b) : b_(b) {}
    std::uint32_t u32() {
        std::uint32_t v = 0;
        if (pos_ + 4 <= b_.size()) std::memcpy(&v, b_.data() + pos_, 4);
        pos_ += 4;
        return v;
    }
    int i32() { return static_cast<int>(u32()); }
    std::vector<int> ints() {
        std::vector<int> v(u32());
        for (int& x : v) x = i32();
        return v;
    }

private:
    const Bytes& b_;
    std::size_t pos_ = 0;
};

// ---- Context ids.

// Hands out `n` consecutive context ids. Called only by the leader of an
// agreement, which then tells the other members. Ids are never reused: a
// 32-bit counter lasts for two billion communicators.
std::uint32_t allocate_context_ids(std::uint32_t n) {
    constexpr std::uint32_t kLimit = 0xfffffff0u;
    std::uint32_t first = job().next_context.fetch_add(n, std::memory_order_relaxed);
    if (first >= kLimit - n) die("out of communicator context ids (more than %u communicators created)", kLimit / 2);
    return first;
}

// ---- Shared parts: one object per communicator per process.
//
// Members build their CommShared from what the agreement told them; the
// first member of a group to finish registers it, and the others take that
// one instead of keeping a copy. The registry maps (context id, world rank
// of the group's first member) -- unique per communicator side -- to the
// object. It holds it (a strong reference) until every member of the group
// has taken it: a member may create, use and free the communicator before a
// slow one has even registered (a collective whose writers need no
// acknowledgement, collectives/framework/inline.hpp), and the slow one must
// still find the object the others used. After that a weak reference is
// enough, and the last member's release removes the entry.

struct SharedRegistry {
    struct Entry {
        std::weak_ptr<const CommShared> weak;
        std::shared_ptr<const CommShared> keep;  // until every member has taken it
        int awaited = 0;                          // members that have not taken it yet
    };
    std::mutex lock;
    std::unordered_map<std::uint64_t, Entry> entries;
};

SharedRegistry& registry() {
    static SharedRegistry* r = new SharedRegistry;  // never destroyed: comms may die during exit
    return *r;
}

std::uint64_t shared_key(const CommShared& s) {
    return (static_cast<std::uint64_t>(s.context_id) << 32) | static_cast<std::uint32_t>(s.world_rank_of.front());
}

std::shared_ptr<const CommShared> intern_shared(CommShared built) {
    SharedRegistry& reg = registry();
    const std::uint64_t key = shared_key(built);
    std::shared_ptr<const CommShared> last_keep;  // released outside the lock (its deleter takes it)
    std::lock_guard<std::mutex> guard(reg.lock);
    auto it = reg.entries.find(key);
    if (it != reg.entries.end()) {
        if (auto existing = it->second.weak.lock()) {
            if (it->second.awaited > 0 && --it->second.awaited == 0) last_keep = std::move(it->second.keep);
            return existing;
        }
    }
    const int others = built.size - 1;
    std::shared_ptr<const CommShared> fresh(new CommShared(std::move(built)), [key](const CommShared* s) {
        SharedRegistry& r = registry();
        {
            std::lock_guard<std::mutex> g(r.lock);
            auto e = r.entries.find(key);
            // A member may already have registered a successor for the key.
            if (e != r.entries.end() && e->second.weak.expired()) r.entries.erase(e);
        }
        delete s;
    });
    SharedRegistry::Entry& e = reg.entries[key];
    e.weak = fresh;
    e.awaited = others;
    e.keep = others > 0 ? fresh : nullptr;
    return fresh;
}

// ---- Messages of any length between two members, on the internal context.
//
// The first message carries the length and up to kInlineBytes of data; a
// second one carries the rest. Agreements are small, so one message is the
// rule. The receiver posts the second receive only after the first arrived;
// nothing else can come between them, as the tag is the agreement's own.

constexpr std::size_t kInlineBytes = 120;
struct FirstPart {
    std::uint64_t length;
    unsigned char data[kInlineBytes];
};

const Datatype* byte_type() noexcept { return datatype_from_handle(MPI_BYTE); }

void internal_request(Request& r, RequestKind kind, Comm& comm, int peer, int tag, std::size_t bytes) {
    r.kind = kind;
    r.internal = true;
    r.count = static_cast<std::int64_t>(bytes);
    r.type = byte_type();
    r.peer = peer;
    r.tag = tag;
    r.comm = &comm;
    r.context = comm.shared->context_id + 1;
}

bool send_done(Request& r) {
    if (r.complete()) return true;
    // A large send the receiver is copying: take a share (as wait_request does).
    if (r.split.ready.load(std::memory_order_acquire)) r.split.help();
    return r.complete();
}

Task<int> send_bytes(Rank& self, Comm& comm, int peer, int tag, const Bytes& data) {
    FirstPart first;
    first.length = data.size();
    const std::size_t head = std::min(data.size(), kInlineBytes);
    if (head) std::memcpy(first.data, data.data(), head);
    Request a;
    internal_request(a, RequestKind::send, comm, peer, tag, sizeof first.length + head);
    a.send_buf = &first;
    start_send(self, a);
    const bool rest = data.size() > kInlineBytes;
    Request b;
    if (rest) {
        internal_request(b, RequestKind::send, comm, peer, tag, data.size() - kInlineBytes);
        b.send_buf = data.data() + kInlineBytes;
        start_send(self, b);
    }
    while (!send_done(a) || (rest && !send_done(b))) co_await std::suspend_always{};
    co_return 0;
}

Task<Bytes> recv_bytes(Rank& self, Comm& comm, int peer, int tag) {
    FirstPart first;
    Request a;
    internal_request(a, RequestKind::recv, comm, peer, tag, sizeof first);
    a.recv_buf = &first;
    start_recv(self, a);
    while (!a.complete()) co_await std::suspend_always{};
    Bytes data(static_cast<std::size_t>(first.length));
    const std::size_t head = std::min(data.size(), kInlineBytes);
    if (head) std::memcpy(data.data(), first.data, head);
    if (data.size() > kInlineBytes) {
        Request b;
        internal_request(b, RequestKind::recv, comm, peer, tag, data.size() - kInlineBytes);
        b.recv_buf = data.data() + kInlineBytes;
        start_recv(self, b);
        while (!b.complete()) co_await std::suspend_always{};
    }
    co_return data;
}

// Sends `data` to a peer and receives what the peer sends (both at once).
Task<Bytes> exchange(Rank& self, Comm& via, int peer, int tag, Bytes data) {
    auto send = send_bytes(self, via, peer, tag, data);
    auto recv = recv_bytes(self, via, peer, tag);
    for (;;) {
        bool sent = send.step();
        bool received = recv.step();
        if (sent && received) break;
        co_await std::suspend_always{};
    }
    co_return recv.take();
}

// ---- The agreement: gather to a root, compute there, send the outcome to all.

using AtRoot = std::function<Bytes(std::vector<Bytes>& contributions)>;

// Collective over `comm` (an intracommunicator). With `gather`, the root
// receives every member's `mine` first (contributions[r] is rank r's);
// without, at_root sees only its own. Every member returns at_root's result.
Task<Bytes> gather_bcast(Rank& self, Comm& comm, int root, int tag, Bytes mine, bool gather, AtRoot at_root) {
    const int n = comm.size();
    if (comm.rank != root) {
        if (gather) {
            AWAIT(int, sent, send_bytes(self, comm, root, tag, mine));
            (void)sent;
        }
        AWAIT(Bytes, outcome, recv_bytes(self, comm, root, tag));
        co_return outcome;
    }
    std::vector<Bytes> all(static_cast<std::size_t>(n));
    all[static_cast<std::size_t>(root)] = std::move(mine);
    if (gather) {
        for (int r = 0; r < n; ++r) {
            if (r == root) continue;
            AWAIT(Bytes, got, recv_bytes(self, comm, r, tag));
            all[static_cast<std::size_t>(r)] = std::move(got);
        }
    }
    Bytes outcome = at_root(all);
    std::vector<Task<int>> sends;
    sends.reserve(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r)
        if (r != root) sends.push_back(send_bytes(self, comm, r, tag, outcome));
    for (;;) {
        bool all_sent = true;
        for (auto& s : sends) all_sent = s.step() && all_sent;
        if (all_sent) break;
        co_await std::suspend_always{};
    }
    co_return outcome;
}

constexpr int kSequencedTags = 0x40000000;

// The tag of the next agreement over all members of `comm`.
int next_agreement_tag(Comm& comm) {
    return kSequencedTags + static_cast<int>(comm.agreement_seq.fetch_add(1, std::memory_order_relaxed) & 0x3fffffffu);
}

// Tags of agreements among some members only, from the user's tag.
int create_group_tag(int user_tag) { return -2 - 2 * (user_tag & 0x3ffffff); }
int intercomm_create_tag(int user_tag) { return -3 - 2 * (user_tag & 0x3ffffff); }

// ---- What an agreement builds.

struct Built {
    int error = MPI_SUCCESS;
    std::shared_ptr<const CommShared> shared;  // null: the caller gets no communicator
    int rank = -1;
    std::shared_ptr<const CommShared> local_shared;  // intercommunicators' hidden local group
};

std::shared_ptr<const CommShared> make_shared_part(std::uint32_t context, std::vector<int> local, std::vector<int> remote) {
    CommShared s;
    s.context_id = context;
    s.size = static_cast<int>(local.size());
    s.world_rank_of = std::move(local);
    s.remote_world_rank_of = std::move(remote);
    return intern_shared(std::move(s));
}

Built make_intra(std::uint32_t context, std::vector<int> members, int rank) {
    Built b;
    b.shared = make_shared_part(context, std::move(members), {});
    b.rank = rank;
    return b;
}

Built make_inter(std::uint32_t context, std::vector<int> local, std::vector<int> remote, int rank) {
    Built b;
    b.local_shared = make_shared_part(context + 2, local, {});
    b.shared = make_shared_part(context, std::move(local), std::move(remote));
    b.rank = rank;
    return b;
}

// Fills a communicator's groups from an agreement's outcome.
void install(Comm& c, const Built& b) {
    c.shared = b.shared;
    c.rank = b.rank;
    if (b.local_shared) {
        c.local = std::make_unique<Comm>();
        c.local->shared = b.local_shared;
        c.local->rank = b.rank;
        c.local->errhandler = MPI_ERRORS_RETURN;
        c.local->handle = reinterpret_cast<MPI_Comm>(c.local.get());
    }
}

// A new communicator object inheriting the parent's error handler (MPI 3.1, 8.3).
Comm* new_comm(const Comm& parent) {
    auto* c = new Comm;
    c->handle = reinterpret_cast<MPI_Comm>(c);
    c->errhandler = parent.errhandler;
    errhandler_retain(c->errhandler);
    return c;
}

Comm* new_comm(const Comm& parent, const Built& b) {
    Comm* c = new_comm(parent);
    install(*c, b);
    return c;
}

// ---- The agreements.

// Intercommunicator agreements: the two leaders (local rank 0 of each
// group) exchange `leader_data` across, combine() makes the group's
// outcome from both sides' data, and each leader sends it to its group.
Task<Bytes> across_then_within(Rank& self, Comm& inter, int inter_tag, int local_tag, Bytes leader_data,
                               std::function<Bytes(const Bytes& mine, const Bytes& theirs)> combine) {
    Bytes combined;
    if (inter.rank == 0) {
        AWAIT(Bytes, theirs, exchange(self, inter, 0, inter_tag, leader_data));
        combined = combine(leader_data, theirs);
    }
    AWAIT(Bytes, outcome,
          gather_bcast(self, *inter.local, 0, local_tag, {}, false, [&](std::vector<Bytes>&) { return combined; }));
    co_return outcome;
}

// Leaders' data that starts with a context id (0 from the side that does
// not allocate): the allocator's id, then the other side's data after its id.
Bytes context_and_theirs(bool allocator, const Bytes& mine, const Bytes& theirs) {
    const Bytes& with_id = allocator ? mine : theirs;
    Bytes o(with_id.begin(), with_id.begin() + 4);
    o.insert(o.end(), theirs.begin() + 4, theirs.end());
    return o;
}

// Members of `color` among (color, key) pairs, ordered by key then rank,
// as world ranks; *my_index is `me`'s place (or stays -1).
std::vector<int> members_of_color(Reader& in, int n, int color, const std::vector<int>& world_of, int me, int* my_index) {
    struct Member {
        int key, rank;
    };
    std::vector<Member> same;
    for (int r = 0; r < n; ++r) {
        int c = in.i32(), k = in.i32();
        if (c == color && color != MPI_UNDEFINED) same.push_back({k, r});
    }
    std::stable_sort(same.begin(), same.end(), [](const Member& a, const Member& b) { return a.key < b.key; });
    std::vector<int> members;
    for (const Member& m : same) {
        if (m.rank == me) *my_index = static_cast<int>(members.size());
        members.push_back(world_of[static_cast<std::size_t>(m.rank)]);
    }
    return members;
}

// Of the two groups of an intercommunicator, the one whose leader has the
// lower world rank allocates for both.
bool allocates_for_both(Rank& self, const Comm& inter) { return self.world_rank < inter.world_rank(0); }

Task<Built> dup_task(Rank& self, Comm& parent, int tag, int local_tag) {
    if (!parent.is_inter()) {
        AWAIT(Bytes, outcome, gather_bcast(self, parent, 0, tag, {}, false, [](std::vector<Bytes>&) {
                  Bytes b;
                  put_u32(b, allocate_context_ids(2));
                  return b;
              }));
        Reader in(outcome);
        co_return make_intra(in.u32(), parent.shared->world_rank_of, parent.rank);
    }
    Bytes mine;
    if (parent.rank == 0) put_u32(mine, allocates_for_both(self, parent) ? allocate_context_ids(4) : 0);
    AWAIT(Bytes, outcome, across_then_within(self, parent, tag, local_tag, mine, [&](const Bytes& a, const Bytes& b) {
              return allocates_for_both(self, parent) ? a : b;
          }));
    Reader in(outcome);
    co_return make_inter(in.u32(), parent.shared->world_rank_of, parent.shared->remote_world_rank_of, parent.rank);
}

Task<Built> split_task(Rank& self, Comm& parent, int tag, int color, int key) {
    Bytes mine;
    put_i32(mine, color);
    put_i32(mine, key);
    // One pair of context ids serves every color: the new communicators
    // have disjoint members, and a rank only ever hears from its own.
    AWAIT(Bytes, outcome, gather_bcast(self, parent, 0, tag, std::move(mine), true, [](std::vector<Bytes>& all) {
              Bytes b;
              put_u32(b, allocate_context_ids(2));
              for (const Bytes& c : all) b.insert(b.end(), c.begin(), c.end());
              return b;
          }));
    if (color == MPI_UNDEFINED) co_return Built{};
    Reader in(outcome);
    const std::uint32_t context = in.u32();
    int my_rank = -1;
    std::vector<int> members = members_of_color(in, parent.size(), color, parent.shared->world_rank_of, parent.rank, &my_rank);
    co_return make_intra(context, std::move(members), my_rank);
}

// MPI_Comm_split of an intercommunicator: each group gathers its (color,
// key) pairs, the leaders swap them, and a color present on both sides
// becomes an intercommunicator between its members on each side.
Task<Built> inter_split_task(Rank& self, Comm& inter, int gather_tag, int inter_tag, int local_tag, int color, int key) {
    Comm& local = *inter.local;
    Bytes mine;
    put_i32(mine, color);
    put_i32(mine, key);
    AWAIT(Bytes, local_pairs, gather_bcast(self, local, 0, gather_tag, std::move(mine), true, [](std::vector<Bytes>& all) {
              Bytes b;
              for (const Bytes& c : all) b.insert(b.end(), c.begin(), c.end());
              return b;
          }));
    Bytes leader_data;
    if (inter.rank == 0) {
        put_u32(leader_data, allocates_for_both(self, inter) ? allocate_context_ids(4) : 0);
        leader_data.insert(leader_data.end(), local_pairs.begin(), local_pairs.end());
    }
    AWAIT(Bytes, outcome, across_then_within(self, inter, inter_tag, local_tag, leader_data, [&](const Bytes& a, const Bytes& b) {
              return context_and_theirs(allocates_for_both(self, inter), a, b);
          }));
    Reader in(outcome);
    const std::uint32_t context = in.u32();
    Reader mine_in(local_pairs);
    int my_index = -1, unused = -1;
    std::vector<int> local_members =
        members_of_color(mine_in, inter.size(), color, inter.shared->world_rank_of, inter.rank, &my_index);
    std::vector<int> remote_members =
        members_of_color(in, inter.peer_count(), color, inter.shared->remote_world_rank_of, -1, &unused);
    if (my_index < 0 || remote_members.empty()) co_return Built{};
    co_return make_inter(context, std::move(local_members), std::move(remote_members), my_index);
}

// MPI_Comm_create of an intercommunicator: each group passes a subgroup of
// itself; the leaders swap them; the result joins the two subgroups.
Task<Built> inter_create_task(Rank& self, Comm& inter, int inter_tag, int local_tag, std::vector<int> group) {
    Bytes leader_data;
    if (inter.rank == 0) {
        put_u32(leader_data, allocates_for_both(self, inter) ? allocate_context_ids(4) : 0);
        put_ints(leader_data, group);
    }
    AWAIT(Bytes, outcome, across_then_within(self, inter, inter_tag, local_tag, leader_data, [&](const Bytes& a, const Bytes& b) {
              return context_and_theirs(allocates_for_both(self, inter), a, b);
          }));
    Reader in(outcome);
    const std::uint32_t context = in.u32();
    std::vector<int> remote = in.ints();
    auto me = std::find(group.begin(), group.end(), self.world_rank);
    if (me == group.end() || remote.empty()) co_return Built{};
    const int rank = static_cast<int>(me - group.begin());
    co_return make_inter(context, std::move(group), std::move(remote), rank);
}

Task<Built> create_task(Rank& self, Comm& parent, int tag, std::vector<int> group) {
    AWAIT(Bytes, outcome, gather_bcast(self, parent, 0, tag, {}, false, [](std::vector<Bytes>&) {
              Bytes b;
              put_u32(b, allocate_context_ids(2));
              return b;
          }));
    auto me = std::find(group.begin(), group.end(), self.world_rank);
    if (me == group.end()) co_return Built{};
    const int rank = static_cast<int>(me - group.begin());
    Reader in(outcome);
    co_return make_intra(in.u32(), std::move(group), rank);
}

// Rank in `comm` of world rank w (which must be a member).
int rank_in(const Comm& comm, int w) {
    const auto& v = comm.shared->world_rank_of;
    return static_cast<int>(std::find(v.begin(), v.end(), w) - v.begin());
}

Task<Built> create_group_task(Rank& self, Comm& parent, int tag, std::vector<int> group) {
    const int rank = static_cast<int>(std::find(group.begin(), group.end(), self.world_rank) - group.begin());
    std::uint32_t context;
    if (rank == 0) {
        context = allocate_context_ids(2);
        Bytes b;
        put_u32(b, context);
        std::vector<Task<int>> sends;
        for (std::size_t i = 1; i < group.size(); ++i) sends.push_back(send_bytes(self, parent, rank_in(parent, group[i]), tag, b));
        for (;;) {
            bool all_sent = true;
            for (auto& s : sends) all_sent = s.step() && all_sent;
            if (all_sent) break;
            co_await std::suspend_always{};
        }
    } else {
        AWAIT(Bytes, got, recv_bytes(self, parent, rank_in(parent, group[0]), tag));
        context = Reader(got).u32();
    }
    co_return make_intra(context, std::move(group), rank);
}

Task<Built> intercomm_create_task(Rank& self, Comm& local, int local_leader, Comm* peer, int remote_leader, int peer_tag,
                                  int local_tag) {
    Bytes leader_outcome;
    if (local.rank == local_leader) {
        // The leader with the lower world rank allocates for both groups.
        const bool allocator = self.world_rank < peer->world_rank(remote_leader);
        Bytes mine;
        put_u32(mine, allocator ? allocate_context_ids(4) : 0);
        put_ints(mine, local.shared->world_rank_of);
        AWAIT(Bytes, theirs, exchange(self, *peer, remote_leader, peer_tag, mine));
        Reader in(theirs);
        std::uint32_t context = in.u32();
        if (allocator) context = Reader(mine).u32();
        std::vector<int> remote = in.ints();
        int error = MPI_SUCCESS;
        for (int w : remote)
            if (std::find(local.shared->world_rank_of.begin(), local.shared->world_rank_of.end(), w) !=
                local.shared->world_rank_of.end())
                error = MPI_ERR_COMM;  // the groups overlap
        put_i32(leader_outcome, error);
        put_u32(leader_outcome, context);
        put_ints(leader_outcome, remote);
    }
    AWAIT(Bytes, outcome, gather_bcast(self, local, local_leader, local_tag, {}, false, [&](std::vector<Bytes>&) {
              return leader_outcome;
          }));
    Reader in(outcome);
    Built b;
    b.error = in.i32();
    const std::uint32_t context = in.u32();
    std::vector<int> remote = in.ints();
    if (b.error != MPI_SUCCESS) co_return b;
    co_return make_inter(context, local.shared->world_rank_of, std::move(remote), local.rank);
}

Task<Built> merge_task(Rank& self, Comm& inter, int tag, int local_tag, bool high) {
    // The leader's flag stands for its group (all members must pass the same).
    Bytes mine;
    if (inter.rank == 0) {
        put_i32(mine, high ? 1 : 0);
        put_u32(mine, allocates_for_both(self, inter) ? allocate_context_ids(2) : 0);
    }
    AWAIT(Bytes, outcome, across_then_within(self, inter, tag, local_tag, mine, [&](const Bytes& a, const Bytes& b) {
              Reader ra(a), rb(b);
              int my_high = ra.i32(), their_high = rb.i32();
              std::uint32_t ca = ra.u32(), cb = rb.u32();
              bool allocator = allocates_for_both(self, inter);
              // This group goes first if it is low and the other high; with
              // equal flags, the group of the allocating leader goes first.
              bool first = my_high != their_high ? my_high < their_high : allocator;
              Bytes o;
              put_i32(o, first ? 1 : 0);
              put_u32(o, allocator ? ca : cb);
              return o;
          }));
    Reader in(outcome);
    const bool first = in.i32() != 0;
    const std::uint32_t context = in.u32();
    const auto& mine_g = inter.shared->world_rank_of;
    const auto& theirs_g = inter.shared->remote_world_rank_of;
    std::vector<int> members;
    members.reserve(mine_g.size() + theirs_g.size());
    if (first) {
        members.insert(members.end(), mine_g.begin(), mine_g.end());
        members.insert(members.end(), theirs_g.begin(), theirs_g.end());
    } else {
        members.insert(members.end(), theirs_g.begin(), theirs_g.end());
        members.insert(members.end(), mine_g.begin(), mine_g.end());
    }
    const int rank = first ? inter.rank : static_cast<int>(theirs_g.size()) + inter.rank;
    co_return make_intra(context, std::move(members), rank);
}

// MPI_Comm_idup: advanced by progress() until the agreement is done, then
// fills in the communicator made at the call.
class IdupOp final : public AsyncOp {
public:
    IdupOp(Task<Built> task, Comm* newc) : task_(std::move(task)), newc_(newc) {}
    bool advance(Rank&) override {
        if (!task_.step()) return false;
        install(*newc_, task_.take());
        return true;
    }

private:
    Task<Built> task_;
    Comm* newc_;
};

}  // namespace

// ---- Entry points.

void comm_allgather(Rank& self, Comm& comm, const void* mine, std::size_t bytes, void* all) {
    std::vector<Bytes> parts = comm_allgatherv(self, comm, mine, bytes);
    auto* out = static_cast<unsigned char*>(all);
    for (std::size_t r = 0; r < parts.size(); ++r)
        if (bytes) std::memcpy(out + r * bytes, parts[r].data(), std::min(bytes, parts[r].size()));
}

std::vector<std::vector<unsigned char>> comm_allgatherv(Rank& self, Comm& comm, const void* mine, std::size_t bytes) {
    Comm& group = comm.is_inter() ? *comm.local : comm;
    const auto* p = static_cast<const unsigned char*>(mine);
    Bytes contribution(p, p + bytes);
    Bytes outcome = run_blocking(self, gather_bcast(self, group, 0, next_agreement_tag(group), std::move(contribution), true,
                                                    [](std::vector<Bytes>& all) {
                                                        Bytes b;
                                                        for (const Bytes& c : all) {
                                                            put_u32(b, static_cast<std::uint32_t>(c.size()));
                                                            b.insert(b.end(), c.begin(), c.end());
                                                        }
                                                        return b;
                                                    }));
    std::vector<Bytes> parts(static_cast<std::size_t>(group.size()));
    std::size_t pos = 0;
    for (Bytes& part : parts) {
        std::uint32_t len = 0;
        std::memcpy(&len, outcome.data() + pos, 4);
        pos += 4;
        part.assign(outcome.begin() + static_cast<std::ptrdiff_t>(pos), outcome.begin() + static_cast<std::ptrdiff_t>(pos + len));
        pos += len;
    }
    return parts;
}

int comm_split(Rank& self, Comm& parent, int color, int key, Comm** out) {
    if (parent.is_inter()) {
        const int gather_tag = next_agreement_tag(*parent.local);
        const int inter_tag = next_agreement_tag(parent);
        const int local_tag = next_agreement_tag(*parent.local);
        Built b = run_blocking(self, inter_split_task(self, parent, gather_tag, inter_tag, local_tag, color, key));
        *out = b.shared ? new_comm(parent, b) : nullptr;
        return b.error;
    }
    Built b = run_blocking(self, split_task(self, parent, next_agreement_tag(parent), color, key));
    *out = b.shared ? new_comm(parent, b) : nullptr;
    return b.error;
}

Comm* comm_dup_shell(const Comm& parent) {
    Comm* c = new_comm(parent);
    c->info = parent.info;
    c->topology = parent.topology;
    return c;
}

void comm_dup(Rank& self, Comm& parent, Comm* newc) {
    const int tag = next_agreement_tag(parent);
    const int local_tag = parent.is_inter() ? next_agreement_tag(*parent.local) : 0;
    install(*newc, run_blocking(self, dup_task(self, parent, tag, local_tag)));
}

void comm_idup_start(Rank& self, Comm& parent, Comm* newc, Request& req) {
    // The tags are taken now, at the call, so agreements the caller starts
    // later on the same communicator get later ones, on every member alike.
    const int tag = next_agreement_tag(parent);
    const int local_tag = parent.is_inter() ? next_agreement_tag(*parent.local) : 0;
    start_async(self, req, std::make_unique<IdupOp>(dup_task(self, parent, tag, local_tag), newc));
}

int comm_create(Rank& self, Comm& parent, const std::vector<int>& group, Comm** out) {
    if (parent.is_inter()) {
        const int inter_tag = next_agreement_tag(parent);
        const int local_tag = next_agreement_tag(*parent.local);
        Built b = run_blocking(self, inter_create_task(self, parent, inter_tag, local_tag, group));
        *out = b.shared ? new_comm(parent, b) : nullptr;
        return b.error;
    }
    Built b = run_blocking(self, create_task(self, parent, next_agreement_tag(parent), group));
    *out = b.shared ? new_comm(parent, b) : nullptr;
    return b.error;
}

int comm_create_group(Rank& self, Comm& parent, const std::vector<int>& group, int tag, Comm** out) {
    if (std::find(group.begin(), group.end(), self.world_rank) == group.end()) {
        *out = nullptr;
        return MPI_SUCCESS;
    }
    Built b = run_blocking(self, create_group_task(self, parent, create_group_tag(tag), group));
    *out = new_comm(parent, b);
    return b.error;
}

int intercomm_create(Rank& self, Comm& local, int local_leader, Comm* peer, int remote_leader, int tag, Comm** out) {
    Built b = run_blocking(self, intercomm_create_task(self, local, local_leader, peer, remote_leader,
                                                       intercomm_create_tag(tag), next_agreement_tag(local)));
    *out = b.error == MPI_SUCCESS ? new_comm(local, b) : nullptr;
    return b.error;
}

int intercomm_merge(Rank& self, Comm& inter, bool high, Comm** out) {
    const int tag = next_agreement_tag(inter);
    const int local_tag = next_agreement_tag(*inter.local);
    Built b = run_blocking(self, merge_task(self, inter, tag, local_tag, high));
    *out = new_comm(inter, b);
    return b.error;
}

int comm_split_type_color(int split_type, int* color) {
    switch (split_type) {
        case MPI_COMM_TYPE_SHARED: *color = 0; return MPI_SUCCESS;  // every rank shares this process's memory
        case HMPI_COMM_TYPE_NUMA: *color = topology_domain_of_current_thread(HardwareDomain::numa); break;
        case HMPI_COMM_TYPE_SOCKET: *color = topology_domain_of_current_thread(HardwareDomain::package); break;
        case HMPI_COMM_TYPE_L3CACHE: *color = topology_domain_of_current_thread(HardwareDomain::l3cache); break;
        default: return MPI_ERR_ARG;
    }
    // A machine that reports no such object is one domain.
    if (*color < 0) *color = 0;
    return MPI_SUCCESS;
}

void comm_free(Comm* c) noexcept {
    c->magic = 0;  // the old handle no longer names a communicator
    comm_release(c);
}

namespace {

// 0: same members in the same order; 1: same members; 2: different.
int compare_members(const std::vector<int>& a, const std::vector<int>& b) {
    if (a == b) return 0;
    if (a.size() != b.size()) return 2;
    std::vector<int> sa(a), sb(b);
    std::sort(sa.begin(), sa.end());
    std::sort(sb.begin(), sb.end());
    return sa == sb ? 1 : 2;
}

}  // namespace

int comm_compare(const Comm& a, const Comm& b) {
    if (&a == &b) return MPI_IDENT;
    if (a.is_inter() != b.is_inter()) return MPI_UNEQUAL;
    int local = compare_members(a.shared->world_rank_of, b.shared->world_rank_of);
    int remote = a.is_inter() ? compare_members(a.shared->remote_world_rank_of, b.shared->remote_world_rank_of) : 0;
    int worst = std::max(local, remote);
    return worst == 0 ? MPI_CONGRUENT : worst == 1 ? MPI_SIMILAR : MPI_UNEQUAL;
}

}  // namespace hmpi
