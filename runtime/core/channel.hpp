// A channel carries messages from one rank to another: a single-producer,
// single-consumer ring of 64-byte cells in shared memory, plus an overflow
// list for when the ring is full.
//
// Why a ring per pair rather than one queue per receiver: a cache line moves
// between two cores here in ~200 ns (measured, docs/point-to-point.md), so the
// latency of a small message is set by how many lines must move. A message
// that fits in the header cell costs one line: the sender writes payload,
// header and sequence number into one cell; the receiver, polling that cell,
// takes one miss. A shared multi-producer queue needs an atomic exchange on a
// shared tail plus a pointer chase: three dependent misses.
//
// Ordering: every message gets a per-channel sequence number. While the
// overflow list holds anything, the sender appends there; the receiver takes
// the whole list at once and first drains ring messages numbered below it,
// so messages are consumed in the order they were sent (MPI's non-overtaking
// rule) whichever path they took.
//
// Sequence numbers in cells are absolute cell indices + 1 and never repeat,
// so cells are never reset.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "base/cacheline.hpp"
#include "base/spinlock.hpp"

namespace hmpi {

struct Request;

enum class EnvelopeKind : std::uint16_t {
    eager = 1,       // payload carried with the envelope
    eager_sync = 2,  // eager, and the sender's request completes when matched
    rendezvous = 3,  // the receiver copies from the sender's buffer, then completes its request
};

// What the receiver needs to match and deliver a message.
struct Envelope {
    std::uint32_t msg_seq = 0;
    std::uint32_t context = 0;
    int tag = 0;
    int source = 0;  // rank in the communicator
    EnvelopeKind kind = EnvelopeKind::eager;
    std::int64_t bytes = 0;   // message size in bytes
    Request* sender = nullptr;  // eager_sync, rendezvous
};

struct alignas(kCacheLine) Cell {
    std::atomic<std::uint64_t> seq;  // index + 1 when the envelope starting here is published
    std::uint32_t msg_seq;
    std::uint32_t context;
    std::int32_t tag;
    std::int32_t source;
    std::uint16_t kind;
    std::uint16_t ncells;
    std::uint32_t payload_bytes;
    unsigned char payload[32];
};
static_assert(sizeof(Cell) == 64, "a cell is one cache line");

inline constexpr std::size_t kHeaderPayload = sizeof(Cell::payload);

// An arrived message the receiver holds outside a ring: from the overflow
// list, or unexpected (no matching receive was posted). MPI_Message handles
// point to these.
struct Message {
    static constexpr std::uint32_t kMagic = 0x4d534721;  // "MSG!"
    std::uint32_t magic = kMagic;
    Message* next = nullptr;
    Message* prev = nullptr;
    Envelope env;
    std::size_t data_bytes = 0;  // eager payload size (data follows the struct)
    unsigned char* data() noexcept { return reinterpret_cast<unsigned char*>(this + 1); }
    static Message* create(const Envelope& env, std::size_t data_bytes);
    static void destroy(Message* m) noexcept;
};

// A piece of payload as it lies in a ring: up to two spans (wrap-around).
struct PayloadView {
    const unsigned char* p1 = nullptr;
    std::size_t n1 = 0;
    const unsigned char* p2 = nullptr;
    std::size_t n2 = 0;
    std::size_t size() const noexcept { return n1 + n2; }
    void copy_to(void* dst, std::size_t bytes) const noexcept;  // first `bytes` bytes
};

class Channel {
public:
    Channel(int src_world, int dst_world, std::size_t cells);
    ~Channel();
    Channel(const Channel&) = delete;
    Channel& operator=(const Channel&) = delete;

    // ---- Sender side (one thread at a time: callers hold send_lock under MPI_THREAD_MULTIPLE).
    // Publishes one message. Sync and rendezvous envelopes carry the sender's
    // request (and the rendezvous size) in front of the data.
    // `pack(dst, offset, n)` writes data bytes [offset, offset + n) to dst, so
    // the data goes straight into the ring (at most two pieces).
    template <class Pack>
    void send(const Envelope& env, std::size_t data_bytes, Pack&& pack);

    SpinLock send_lock;

    // ---- Receiver side (one thread at a time: the owner's progress).
    // Calls `on_ring(env, payload)` and `on_message(Message*)` for every
    // message, in sending order. Returns the number of messages consumed.
    template <class OnRing, class OnMessage>
    int drain(OnRing&& on_ring, OnMessage&& on_message);

    int src_world() const noexcept { return src_; }
    int dst_world() const noexcept { return dst_; }

private:
    template <class OnRing>
    int drain_ring(std::uint64_t below_msg_seq, OnRing&& on_ring);
    void write_payload(std::uint64_t first_cell, std::size_t offset, const void* src, std::size_t n) noexcept;
    unsigned char* payload_ptr(std::uint64_t first_cell, std::size_t offset, std::size_t* contiguous) noexcept;
    PayloadView payload_view(std::uint64_t first_cell, std::size_t n) noexcept;
    static std::uint16_t cells_for(std::size_t payload) noexcept {
        return static_cast<std::uint16_t>(1 + (payload > kHeaderPayload ? (payload - kHeaderPayload + 63) / 64 : 0));
    }

    Cell* cells_;
    std::uint64_t mask_;
    int src_, dst_;

    // Sender-private.
    alignas(kFalseSharingRange) std::uint64_t tail_ = 0;
    std::uint64_t head_cache_ = 0;
    std::uint32_t next_msg_seq_ = 0;

    // Receiver-private.
    alignas(kFalseSharingRange) std::uint64_t head_ = 0;

    // Receiver -> sender: cells consumed. The receiver writes it after every
    // message, but the sender reads it only when its cached copy says the ring
    // is full, so the line rarely moves.
    alignas(kFalseSharingRange) std::atomic<std::uint64_t> head_published_{0};

    // Overflow list (sender appends, receiver takes all).
    alignas(kFalseSharingRange) std::atomic<bool> overflow_pending_{false};
    SpinLock overflow_lock_;
    Message* overflow_head_ = nullptr;
    Message* overflow_tail_ = nullptr;
};

}  // namespace hmpi

#include "core/channel_impl.hpp"
