// Template bodies of Channel (included from channel.hpp).
#pragma once
#include <cstring>
#include <limits>

namespace hmpi {

namespace channel_detail {
inline bool seq_before(std::uint32_t a, std::uint32_t b) noexcept {
    return static_cast<std::int32_t>(a - b) < 0;
}
// Bytes that precede the data in a payload, per envelope kind.
inline std::size_t prefix_bytes(EnvelopeKind k) noexcept {
    switch (k) {
        case EnvelopeKind::eager: return 0;
        case EnvelopeKind::eager_sync: return sizeof(Request*);
        case EnvelopeKind::rendezvous: return sizeof(Request*) + sizeof(std::int64_t);
    }
    return 0;
}
}  // namespace channel_detail

template <class Pack>
void Channel::send(const Envelope& env, std::size_t data_bytes, Pack&& pack) {
    using namespace channel_detail;
    const std::size_t prefix = prefix_bytes(env.kind);
    const std::size_t payload = prefix + data_bytes;
    const std::uint16_t n = cells_for(payload);
    const std::uint64_t capacity = mask_ + 1;
    const std::uint32_t msg_seq = next_msg_seq_++;

    unsigned char prefix_buf[sizeof(Request*) + sizeof(std::int64_t)];
    if (prefix) {
        std::memcpy(prefix_buf, &env.sender, sizeof(Request*));
        std::memcpy(prefix_buf + sizeof(Request*), &env.bytes, sizeof(std::int64_t));
    }

    if (!overflow_pending_.load(std::memory_order_relaxed)) {
        if (tail_ + n - head_cache_ > capacity) head_cache_ = head_published_.load(std::memory_order_acquire);
        if (tail_ + n - head_cache_ <= capacity) {
            Cell& c = cells_[tail_ & mask_];
            c.msg_seq = msg_seq;
            c.context = env.context;
            c.tag = env.tag;
            c.source = env.source;
            c.kind = static_cast<std::uint16_t>(env.kind);
            c.ncells = n;
            c.payload_bytes = static_cast<std::uint32_t>(payload);
            if (prefix) write_payload(tail_, 0, prefix_buf, prefix);
            // Pack data straight into the ring, at most two pieces.
            std::size_t done = 0;
            while (done < data_bytes) {
                std::size_t contiguous = 0;
                unsigned char* dst = payload_ptr(tail_, prefix + done, &contiguous);
                std::size_t k = std::min(contiguous, data_bytes - done);
                pack(dst, done, k);
                done += k;
            }
            c.seq.store(tail_ + 1, std::memory_order_release);
            tail_ += n;
            return;
        }
    }
    // Ring full (the receiver is not progressing) or already overflowing:
    // queue the message so the send still completes locally.
    Envelope e = env;
    e.msg_seq = msg_seq;
    Message* m = Message::create(e, data_bytes);
    if (data_bytes) pack(m->data(), 0, data_bytes);
    overflow_lock_.lock();
    if (overflow_tail_) overflow_tail_->next = m;
    else overflow_head_ = m;
    overflow_tail_ = m;
    overflow_pending_.store(true, std::memory_order_relaxed);
    overflow_lock_.unlock();
}

template <class OnRing>
int Channel::drain_ring(std::uint64_t below, OnRing&& on_ring) {
    using namespace channel_detail;
    const bool limited = below != std::numeric_limits<std::uint64_t>::max();
    int consumed = 0;
    for (;;) {
        Cell& c = cells_[head_ & mask_];
        if (c.seq.load(std::memory_order_acquire) != head_ + 1) break;
        if (limited && !seq_before(c.msg_seq, static_cast<std::uint32_t>(below))) break;
        Envelope env;
        env.msg_seq = c.msg_seq;
        env.context = c.context;
        env.tag = c.tag;
        env.source = c.source;
        env.kind = static_cast<EnvelopeKind>(c.kind);
        const std::size_t prefix = prefix_bytes(env.kind);
        const std::size_t data_bytes = c.payload_bytes - prefix;
        env.bytes = static_cast<std::int64_t>(data_bytes);
        if (prefix) {
            unsigned char prefix_buf[sizeof(Request*) + sizeof(std::int64_t)];
            payload_view(head_, prefix).copy_to(prefix_buf, prefix);
            std::memcpy(&env.sender, prefix_buf, sizeof(Request*));
            if (env.kind == EnvelopeKind::rendezvous) std::memcpy(&env.bytes, prefix_buf + sizeof(Request*), sizeof(std::int64_t));
        }
        PayloadView data;
        if (c.ncells == 1) {
            // The common small message: all of it lies in the header cell.
            data.p1 = c.payload + prefix;
            data.n1 = data_bytes;
        } else {
            data = payload_view(head_, prefix + data_bytes);
        }
        // Skip the prefix within the view (multi-cell payloads).
        if (prefix && c.ncells != 1) {
            if (data.n1 >= prefix) { data.p1 += prefix; data.n1 -= prefix; }
            else { std::size_t k = prefix - data.n1; data.p1 = data.p2 + k; data.n1 = data.n2 - k; data.p2 = nullptr; data.n2 = 0; }
        }
        const std::uint16_t ncells = c.ncells;
        on_ring(env, data);
        // Invariant: a cell that is not the header of a published envelope
        // never holds a seq value that a future header check could accept.
        // Payload bytes overwrote the seq words of continuation cells: zero them.
        for (std::uint16_t i = 1; i < ncells; ++i)
            cells_[(head_ + i) & mask_].seq.store(0, std::memory_order_relaxed);
        head_ += ncells;
        head_published_.store(head_, std::memory_order_release);
        ++consumed;
    }
    return consumed;
}

template <class OnRing, class OnMessage>
int Channel::drain(OnRing&& on_ring, OnMessage&& on_message) {
    int consumed = 0;
    if (overflow_pending_.load(std::memory_order_acquire)) {
        overflow_lock_.lock();
        Message* list = overflow_head_;
        overflow_head_ = overflow_tail_ = nullptr;
        overflow_pending_.store(false, std::memory_order_relaxed);
        overflow_lock_.unlock();
        if (list) {
            // Ring messages sent before the first overflowed one come first.
            consumed += drain_ring(list->env.msg_seq, on_ring);
            while (list) {
                Message* next = list->next;
                list->next = nullptr;
                on_message(list);
                list = next;
                ++consumed;
            }
        }
    }
    consumed += drain_ring(std::numeric_limits<std::uint64_t>::max(), on_ring);
    return consumed;
}

}  // namespace hmpi
