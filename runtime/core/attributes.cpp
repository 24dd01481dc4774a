// Keyvals, attribute sets and the predefined attributes (MPI 3.1, 6.7 and 8.1.2).
//
// Keyval ids index a table of fixed-size chunks that are never moved or
// freed, so looking an id up is two atomic loads and takes no lock; creating
// and freeing ids (rare) take a mutex. Freed ids are reused.
#include "core/attributes.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "base/refcount.hpp"
#include "core/datatype.hpp"
#include "core/errhandler.hpp"
#include "core/rank.hpp"

namespace hmpi {

struct Keyval {
    static constexpr std::uint32_t kMagic = 0x4b455956;  // "KEYV"
    std::uint32_t magic = kMagic;
    int id = 0;
    AttrObject kind = AttrObject::comm;
    bool deprecated = false;
    AttrCallback copy_fn = nullptr;
    AttrCallback delete_fn = nullptr;
    void* extra_state = nullptr;
    // The user's id (until freed) plus one per attribute using the keyval.
    RefCount refs;
};

namespace {

// Ids start above the predefined keys (501..507) with room to spare, so a
// stale or mistyped small number never names a user keyval.
constexpr int kFirstId = 1024;
constexpr std::size_t kChunkSize = 1024;
constexpr std::size_t kMaxChunks = 4096;  // about four million live keyvals

// The predefined callback values of mpi.h.
constexpr std::uintptr_t kNullFn = 0x0;
constexpr std::uintptr_t kDupFn = 0x1;

struct KeyvalTable {
    std::atomic<std::atomic<Keyval*>*> chunks[kMaxChunks] = {};
    std::mutex mutex;           // creation and freeing of ids
    std::size_t next = 0;       // first index never handed out
    std::vector<std::size_t> reusable;  // indices of freed ids
};

KeyvalTable& table() {
    static KeyvalTable t;
    return t;
}

std::atomic<Keyval*>* slot(std::size_t index, bool create) {
    KeyvalTable& t = table();
    std::atomic<Keyval*>* chunk = t.chunks[index / kChunkSize].load(std::memory_order_acquire);
    if (!chunk && create) {  // under t.mutex
        chunk = new std::atomic<Keyval*>[kChunkSize]();
        t.chunks[index / kChunkSize].store(chunk, std::memory_order_release);
    }
    return chunk ? &chunk[index % kChunkSize] : nullptr;
}

void keyval_retain(Keyval* k) noexcept { k->refs.retain(); }
void keyval_release(Keyval* k) noexcept {
    if (k->refs.release()) {
        k->magic = 0;
        delete k;
    }
}

// The object handles the callbacks of each kind take.
int call_copy(const Keyval* k, void* handle, void* value_in, void** value_out, int* flag) {
    auto fn = reinterpret_cast<std::uintptr_t>(k->copy_fn);
    if (fn == kNullFn) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    if (fn == kDupFn) {
        *value_out = value_in;
        *flag = 1;
        return MPI_SUCCESS;
    }
    *flag = 0;
    switch (k->kind) {
        case AttrObject::comm:
            return reinterpret_cast<MPI_Comm_copy_attr_function*>(k->copy_fn)(
                static_cast<MPI_Comm>(handle), k->id, k->extra_state, value_in, value_out, flag);
        case AttrObject::datatype:
            return reinterpret_cast<MPI_Type_copy_attr_function*>(k->copy_fn)(
                static_cast<MPI_Datatype>(handle), k->id, k->extra_state, value_in, value_out, flag);
        case AttrObject::win:
            return reinterpret_cast<MPI_Win_copy_attr_function*>(k->copy_fn)(
                static_cast<MPI_Win>(handle), k->id, k->extra_state, value_in, value_out, flag);
    }
    return MPI_ERR_INTERN;
}

int call_delete(const Keyval* k, void* handle, void* value) {
    if (reinterpret_cast<std::uintptr_t>(k->delete_fn) == kNullFn) return MPI_SUCCESS;
    switch (k->kind) {
        case AttrObject::comm:
            return reinterpret_cast<MPI_Comm_delete_attr_function*>(k->delete_fn)(static_cast<MPI_Comm>(handle), k->id,
                                                                                 value, k->extra_state);
        case AttrObject::datatype:
            return reinterpret_cast<MPI_Type_delete_attr_function*>(k->delete_fn)(static_cast<MPI_Datatype>(handle),
                                                                                 k->id, value, k->extra_state);
        case AttrObject::win:
            return reinterpret_cast<MPI_Win_delete_attr_function*>(k->delete_fn)(static_cast<MPI_Win>(handle), k->id,
                                                                                value, k->extra_state);
    }
    return MPI_ERR_INTERN;
}

}  // namespace

// ---- Keyvals.

int keyval_create(AttrObject kind, AttrCallback copy_fn, AttrCallback delete_fn, void* extra_state, bool deprecated,
                  int* id) {
    auto* k = new Keyval;
    k->kind = kind;
    k->deprecated = deprecated;
    k->copy_fn = copy_fn;
    k->delete_fn = delete_fn;
    k->extra_state = extra_state;
    KeyvalTable& t = table();
    std::lock_guard<std::mutex> hold(t.mutex);
    std::size_t index;
    if (!t.reusable.empty()) {
        index = t.reusable.back();
        t.reusable.pop_back();
    } else if (t.next < kChunkSize * kMaxChunks) {
        index = t.next++;
    } else {
        delete k;
        return MPI_ERR_OTHER;
    }
    k->id = kFirstId + static_cast<int>(index);
    slot(index, true)->store(k, std::memory_order_release);
    *id = k->id;
    return MPI_SUCCESS;
}

Keyval* keyval_from_id(int id) noexcept {
    if (id < kFirstId) return nullptr;
    auto index = static_cast<std::size_t>(id - kFirstId);
    if (index >= kChunkSize * kMaxChunks) return nullptr;
    std::atomic<Keyval*>* s = slot(index, false);
    return s ? s->load(std::memory_order_acquire) : nullptr;
}

AttrObject keyval_kind(const Keyval* k) noexcept { return k->kind; }
int keyval_id(const Keyval* k) noexcept { return k->id; }
bool keyval_is_deprecated(const Keyval* k) noexcept { return k->deprecated; }

void keyval_free(Keyval* k) noexcept {
    KeyvalTable& t = table();
    {
        std::lock_guard<std::mutex> hold(t.mutex);
        auto index = static_cast<std::size_t>(k->id - kFirstId);
        std::atomic<Keyval*>* s = slot(index, false);
        if (!s || s->load(std::memory_order_relaxed) != k) return;  // freed twice: nothing left to do
        s->store(nullptr, std::memory_order_release);
        t.reusable.push_back(index);
    }
    keyval_release(k);
}

// ---- Predefined attributes.

bool is_predefined_keyval(int id) noexcept { return id >= MPI_TAG_UB && id <= MPI_LASTUSEDCODE; }

int* predefined_attribute_value(int id, int world_rank) noexcept {
    // Values the same for every rank of the process (and stable addresses:
    // MPI_Comm_get_attr hands out pointers to them).
    struct Values {
        int tag_ub = INT_MAX;                // envelopes carry any non-negative int tag
        int host = MPI_PROC_NULL;            // no host rank
        int io = MPI_ANY_SOURCE;             // every rank can do language I/O (MPI 3.1, 8.1.2)
        int wtime_is_global = 1;             // one clock: the ranks are threads of one process
        int universe_size = job().nranks;    // no dynamic processes: the universe is the job
        int appnum = 0;                      // one application (no MPMD launches)
    };
    static Values v;
    switch (id) {
        case MPI_TAG_UB: return &v.tag_ub;
        case MPI_HOST: return &v.host;
        case MPI_IO: return &v.io;
        case MPI_WTIME_IS_GLOBAL: return &v.wtime_is_global;
        case MPI_UNIVERSE_SIZE: return &v.universe_size;
        case MPI_APPNUM: return &v.appnum;
        case MPI_LASTUSEDCODE: {
            // One slot per rank, written only by that rank.
            static const std::unique_ptr<int[]> last_used = std::make_unique<int[]>(static_cast<std::size_t>(job().nranks));
            if (world_rank < 0 || world_rank >= job().nranks) return nullptr;
            int& mine = last_used[static_cast<std::size_t>(world_rank)];
            mine = __atomic_load_n(error_last_used_code(), __ATOMIC_ACQUIRE);
            return &mine;
        }
        default: return nullptr;
    }
}

// ---- Attributes of predefined datatypes, per rank.

AttributeSet& datatype_attributes(int world_rank, const Datatype& t) {
    if (!t.predefined) return const_cast<Datatype&>(t).attrs;
    static std::mutex mutex;
    static std::map<std::pair<int, MPI_Datatype>, std::unique_ptr<AttributeSet>> sets;
    std::lock_guard<std::mutex> hold(mutex);
    auto& set = sets[{world_rank, t.handle}];
    if (!set) set = std::make_unique<AttributeSet>();
    return *set;
}

// ---- Attribute sets.

AttributeSet::~AttributeSet() {
    for (Entry& e : entries_) keyval_release(e.key);
}

int AttributeSet::copy_into(AttributeSet& dst, void* old_handle) const {
    // Callbacks may change this set (MPI allows them to call MPI): iterate
    // over a snapshot that holds the keyvals alive.
    std::vector<Entry> snapshot = entries_;
    for (Entry& e : snapshot) keyval_retain(e.key);
    int result = MPI_SUCCESS;
    for (Entry& e : snapshot) {
        void* out = nullptr;
        int flag = 0;
        int rc = call_copy(e.key, old_handle, e.value, &out, &flag);
        if (rc != MPI_SUCCESS) {
            result = rc;
            break;
        }
        if (flag) {
            keyval_retain(e.key);
            dst.entries_.push_back({e.key, out});
        }
    }
    for (Entry& e : snapshot) keyval_release(e.key);
    return result;
}

int AttributeSet::delete_all(void* handle) {
    int result = MPI_SUCCESS;
    // Last set first; each entry leaves the set before its callback runs, so
    // a callback that looks at the object sees the attributes not yet deleted.
    while (!entries_.empty()) {
        Entry e = entries_.back();
        entries_.pop_back();
        int rc = call_delete(e.key, handle, e.value);
        if (rc != MPI_SUCCESS && result == MPI_SUCCESS) result = rc;
        keyval_release(e.key);
    }
    return result;
}

int AttributeSet::set(Keyval* key, void* value, void* handle) {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key == key; });
    if (it == entries_.end()) {
        keyval_retain(key);
        entries_.push_back({key, value});
        return MPI_SUCCESS;
    }
    void* old = it->value;
    if (int rc = call_delete(key, handle, old); rc != MPI_SUCCESS) return rc;
    // The callback may have changed the set: find the entry again.
    it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key == key; });
    if (it != entries_.end()) {
        it->value = value;
    } else {
        keyval_retain(key);
        entries_.push_back({key, value});
    }
    return MPI_SUCCESS;
}

bool AttributeSet::get(const Keyval* key, void** value) const {
    for (const Entry& e : entries_) {
        if (e.key == key) {
            *value = e.value;
            return true;
        }
    }
    return false;
}

int AttributeSet::remove(Keyval* key, void* handle) {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key == key; });
    if (it == entries_.end()) return MPI_SUCCESS;
    void* value = it->value;
    if (int rc = call_delete(key, handle, value); rc != MPI_SUCCESS) return rc;
    it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key == key; });
    if (it != entries_.end()) {
        entries_.erase(it);
        keyval_release(key);
    }
    return MPI_SUCCESS;
}

}  // namespace hmpi
