#include "core/channel.hpp"

#include <cstdlib>
#include <new>

#include "base/log.hpp"

namespace hmpi {

Message* Message::create(const Envelope& env, std::size_t data_bytes) {
    void* mem = std::malloc(sizeof(Message) + data_bytes);
    if (!mem) die("out of memory queuing a %zu-byte message", data_bytes);
    auto* m = new (mem) Message;
    m->env = env;
    m->data_bytes = data_bytes;
    return m;
}

void Message::destroy(Message* m) noexcept {
    m->magic = 0;
    m->~Message();
    std::free(m);
}

void PayloadView::copy_to(void* dst, std::size_t bytes) const noexcept {
    auto* d = static_cast<unsigned char*>(dst);
    std::size_t a = bytes < n1 ? bytes : n1;
    if (a) std::memcpy(d, p1, a);
    if (bytes > a) std::memcpy(d + a, p2, bytes - a);
}

Channel::Channel(int src_world, int dst_world, std::size_t cells) : src_(src_world), dst_(dst_world) {
    mask_ = cells - 1;
    void* mem = std::aligned_alloc(kFalseSharingRange, cells * sizeof(Cell));
    if (!mem) die("out of memory allocating a %zu-cell channel", cells);
    std::memset(mem, 0, cells * sizeof(Cell));
    cells_ = static_cast<Cell*>(mem);
}

Channel::~Channel() {
    while (overflow_head_) {
        Message* next = overflow_head_->next;
        Message::destroy(overflow_head_);
        overflow_head_ = next;
    }
    std::free(cells_);
}

unsigned char* Channel::payload_ptr(std::uint64_t first_cell, std::size_t offset, std::size_t* contiguous) noexcept {
    // The payload starts in the header cell and runs on through the following
    // cells, which lie back to back in memory until the ring wraps.
    auto* ring_begin = reinterpret_cast<unsigned char*>(cells_);
    auto* ring_end = reinterpret_cast<unsigned char*>(cells_ + mask_ + 1);
    unsigned char* p = cells_[first_cell & mask_].payload + offset;
    if (p >= ring_end) p = ring_begin + (p - ring_end);
    *contiguous = static_cast<std::size_t>(ring_end - p);
    return p;
}

void Channel::write_payload(std::uint64_t first_cell, std::size_t offset, const void* src, std::size_t n) noexcept {
    auto* s = static_cast<const unsigned char*>(src);
    while (n) {
        std::size_t contiguous = 0;
        unsigned char* p = payload_ptr(first_cell, offset, &contiguous);
        std::size_t k = n < contiguous ? n : contiguous;
        std::memcpy(p, s, k);
        s += k;
        offset += k;
        n -= k;
    }
}

PayloadView Channel::payload_view(std::uint64_t first_cell, std::size_t n) noexcept {
    PayloadView v;
    std::size_t contiguous = 0;
    v.p1 = payload_ptr(first_cell, 0, &contiguous);
    v.n1 = n < contiguous ? n : contiguous;
    if (n > v.n1) {
        v.p2 = reinterpret_cast<const unsigned char*>(cells_);
        v.n2 = n - v.n1;
    }
    return v;
}

}  // namespace hmpi
