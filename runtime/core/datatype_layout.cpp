// Building and walking datatype layout programs (see datatype_layout.hpp).
#include "core/datatype_layout.hpp"

#include <algorithm>
#include <cstring>

namespace hmpi {

namespace {

// Programs this small are copied out rather than wrapped in a loop when
// repeated a few times: fewer ops to dispatch per byte.
constexpr std::size_t kExpandOps = 16;

std::uint64_t program_bytes(const Layout& ops) noexcept {
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < ops.size(); i += 1 + ops[i].body) total += ops[i].bytes;
    return total;
}

// Drops unused levels and folds a level whose runs touch into the run length.
void normalize(LayoutOp& b) noexcept {
    std::uint32_t used = 0;
    for (std::uint32_t k = 0; k < b.levels; ++k) {
        if (b.count[k] == 1) continue;
        b.count[used] = b.count[k];
        b.stride[used] = b.stride[k];
        ++used;
    }
    for (std::uint32_t k = used; k < 3; ++k) b.count[k] = 1, b.stride[k] = 0;
    b.levels = used;
    while (b.levels && b.stride[0] == static_cast<std::ptrdiff_t>(b.len)) {
        b.len *= static_cast<std::size_t>(b.count[0]);
        for (std::uint32_t k = 0; k + 1 < 3; ++k) b.count[k] = b.count[k + 1], b.stride[k] = b.stride[k + 1];
        b.count[2] = 1;
        b.stride[2] = 0;
        --b.levels;
    }
}

// Same run length and the same `levels` innermost repetitions.
bool same_inner(const LayoutOp& a, const LayoutOp& b, std::uint32_t levels) noexcept {
    if (a.len != b.len) return false;
    for (std::uint32_t k = 0; k < levels; ++k)
        if (a.count[k] != b.count[k] || a.stride[k] != b.stride[k]) return false;
    return true;
}

// Folds block e into block b (which precedes it in type-map order) if e
// continues b's pattern. True if folded.
bool fold(LayoutOp& b, const LayoutOp& e) noexcept {
    const std::uint32_t d = b.levels;
    if (d == 0 && e.levels == 0 && e.offset == b.offset + static_cast<std::ptrdiff_t>(b.len)) {
        b.len += e.len;  // adjacent runs
    } else if (d >= 1 && e.levels == d - 1 && same_inner(b, e, d - 1) &&
               e.offset == b.offset + b.count[d - 1] * b.stride[d - 1]) {
        ++b.count[d - 1];  // e is the next repetition of b's outer level
    } else if (d >= 1 && e.levels == d && same_inner(b, e, d - 1) && b.stride[d - 1] == e.stride[d - 1] &&
               e.offset == b.offset + b.count[d - 1] * b.stride[d - 1]) {
        b.count[d - 1] += e.count[d - 1];  // e continues b's outer level
    } else if (d < 3 && e.levels == d && same_inner(b, e, d)) {
        b.count[d] = 2;  // b and e are two repetitions of one shape
        b.stride[d] = e.offset - b.offset;
        b.levels = d + 1;
    } else {
        return false;
    }
    b.bytes += e.bytes;
    normalize(b);
    return true;
}

bool same_ops(const LayoutOp* a, const LayoutOp* b, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i) {
        const LayoutOp &x = a[i], &y = b[i];
        if (x.offset != y.offset || x.bytes != y.bytes || x.len != y.len || x.body != y.body || x.levels != y.levels ||
            x.basic != y.basic || !same_inner(x, y, 3))
            return false;
    }
    return true;
}

}  // namespace

std::size_t layout_depth(const Layout& ops) noexcept {
    // Loops nest: track where each open loop's body ends.
    std::size_t deepest = 0;
    std::vector<std::size_t> ends;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        while (!ends.empty() && i >= ends.back()) ends.pop_back();
        if (ops[i].is_loop()) {
            ends.push_back(i + 1 + ops[i].body);
            deepest = std::max(deepest, ends.size());
        }
    }
    return deepest;
}

void LayoutBuilder::push_block(LayoutOp b) {
    if (b.bytes == 0) return;
    normalize(b);
    if (!ops_.empty() && last_top_ == ops_.size() - 1 && !ops_.back().is_loop()) {
        LayoutOp& prev = ops_.back();
        if ((!typed_ || prev.basic == b.basic) && fold(prev, b)) return;
    }
    ops_.push_back(b);
    last_top_ = ops_.size() - 1;
}

// Appends the loop at `loop` (followed by its body) with its offset shifted.
void LayoutBuilder::push_loop(const LayoutOp* loop, std::ptrdiff_t base_shift) {
    LayoutOp head = *loop;
    head.offset += base_shift;
    if (last_top_ < ops_.size()) {
        LayoutOp& prev = ops_[last_top_];
        if (prev.is_loop() && prev.body == head.body && prev.stride[0] == head.stride[0] &&
            head.offset == prev.offset + prev.count[0] * prev.stride[0] &&
            same_ops(&ops_[last_top_ + 1], loop + 1, head.body)) {
            prev.count[0] += head.count[0];
            prev.bytes += head.bytes;
            return;
        }
    }
    last_top_ = ops_.size();
    ops_.push_back(head);
    ops_.insert(ops_.end(), loop + 1, loop + 1 + head.body);
}

void LayoutBuilder::append_once(const Layout& src, std::ptrdiff_t base) {
    for (std::size_t i = 0; i < src.size(); i += 1 + src[i].body) {
        if (src[i].is_loop()) {
            push_loop(&src[i], base);
        } else {
            LayoutOp b = src[i];
            b.offset += base;
            push_block(b);
        }
    }
}

void LayoutBuilder::append(const Layout& src, std::ptrdiff_t base, std::int64_t n, std::ptrdiff_t stride) {
    if (n <= 0 || src.empty()) return;
    if (n == 1) return append_once(src, base);
    if (src.size() == 1 && src[0].levels < 3) {
        // One block: the repetition becomes its new outer level.
        LayoutOp b = src[0];
        b.offset += base;
        b.count[b.levels] = n;
        b.stride[b.levels] = stride;
        ++b.levels;
        b.bytes *= static_cast<std::uint64_t>(n);
        return push_block(b);
    }
    if (src.size() * static_cast<std::uint64_t>(n) <= kExpandOps) {
        for (std::int64_t k = 0; k < n; ++k) append_once(src, base + k * stride);
        return;
    }
    LayoutOp loop;
    loop.offset = 0;
    loop.body = static_cast<std::uint32_t>(src.size());
    loop.levels = 1;
    loop.count[0] = n;
    loop.stride[0] = stride;
    loop.bytes = program_bytes(src) * static_cast<std::uint64_t>(n);
    Layout tmp;
    tmp.reserve(src.size() + 1);
    tmp.push_back(loop);
    tmp.insert(tmp.end(), src.begin(), src.end());
    push_loop(tmp.data(), base);
}

void LayoutBuilder::append_blocks(const Layout& src, std::ptrdiff_t extent, std::ptrdiff_t disp,
                                  std::int64_t blocklength, std::int64_t repeat, std::ptrdiff_t stride) {
    if (blocklength <= 0 || repeat <= 0 || src.empty()) return;
    if (repeat == 1) return append(src, disp, blocklength, extent);
    LayoutBuilder block(typed_);
    block.append(src, 0, blocklength, extent);
    append(block.take(), disp, repeat, stride);
}

// ---- The cursor.

namespace {

// Copies one block between memory and a packed stream; L > 0 is a run
// length known at compile time (the common small element sizes).
template <bool Pack>
inline void move_run(unsigned char* stream, unsigned char* mem, std::size_t n) noexcept {
    if (Pack) std::memcpy(stream, mem, n);
    else std::memcpy(mem, stream, n);
}

template <bool Pack, std::size_t L>
inline void move_runs(unsigned char* stream, std::uintptr_t mem, std::int64_t n, std::ptrdiff_t stride,
                      std::size_t len) noexcept {
    auto* m = reinterpret_cast<unsigned char*>(mem);
    std::int64_t k = 0;
    if (L) {
        // Four runs per iteration: small runs are bound by the loop's own
        // instructions, not by the copies.
        const std::ptrdiff_t s2 = 2 * stride, s3 = 3 * stride, s4 = 4 * stride;
        for (; k + 4 <= n; k += 4, m += s4, stream += 4 * L) {
            move_run<Pack>(stream, m, L);
            move_run<Pack>(stream + L, m + stride, L);
            move_run<Pack>(stream + 2 * L, m + s2, L);
            move_run<Pack>(stream + 3 * L, m + s3, L);
        }
    }
    const std::size_t run = L ? L : len;
    for (; k < n; ++k, m += stride, stream += run) move_run<Pack>(stream, m, run);
}

template <bool Pack>
void move_block(unsigned char* stream, std::uintptr_t base, const LayoutOp& b) noexcept {
    const std::size_t len = b.len;
    const std::size_t inner = len * static_cast<std::size_t>(b.count[0]);
    for (std::int64_t z = 0; z < b.count[2]; ++z) {
        for (std::int64_t y = 0; y < b.count[1]; ++y) {
            std::uintptr_t mem = base + static_cast<std::uintptr_t>(b.offset + z * b.stride[2] + y * b.stride[1]);
            switch (len) {
                case 1: move_runs<Pack, 1>(stream, mem, b.count[0], b.stride[0], len); break;
                case 2: move_runs<Pack, 2>(stream, mem, b.count[0], b.stride[0], len); break;
                case 4: move_runs<Pack, 4>(stream, mem, b.count[0], b.stride[0], len); break;
                case 8: move_runs<Pack, 8>(stream, mem, b.count[0], b.stride[0], len); break;
                case 12: move_runs<Pack, 12>(stream, mem, b.count[0], b.stride[0], len); break;
                case 16: move_runs<Pack, 16>(stream, mem, b.count[0], b.stride[0], len); break;
                case 24: move_runs<Pack, 24>(stream, mem, b.count[0], b.stride[0], len); break;
                case 32: move_runs<Pack, 32>(stream, mem, b.count[0], b.stride[0], len); break;
                default: move_runs<Pack, 0>(stream, mem, b.count[0], b.stride[0], len); break;
            }
            stream += inner;
        }
    }
}

template <std::size_t L>
void copy_rows_fixed(unsigned char* d, std::ptrdiff_t ds, const unsigned char* s, std::ptrdiff_t ss, std::int64_t k) noexcept {
    std::int64_t i = 0;
    for (; i + 4 <= k; i += 4, d += 4 * ds, s += 4 * ss) {
        std::memcpy(d, s, L);
        std::memcpy(d + ds, s + ss, L);
        std::memcpy(d + 2 * ds, s + 2 * ss, L);
        std::memcpy(d + 3 * ds, s + 3 * ss, L);
    }
    for (; i < k; ++i, d += ds, s += ss) std::memcpy(d, s, L);
}

}  // namespace

void copy_rows(unsigned char* d, std::ptrdiff_t ds, const unsigned char* s, std::ptrdiff_t ss, std::size_t len,
               std::int64_t k) noexcept {
    switch (len) {
        case 4: return copy_rows_fixed<4>(d, ds, s, ss, k);
        case 8: return copy_rows_fixed<8>(d, ds, s, ss, k);
        case 16: return copy_rows_fixed<16>(d, ds, s, ss, k);
        case 32: return copy_rows_fixed<32>(d, ds, s, ss, k);
        default:
            for (std::int64_t i = 0; i < k; ++i, d += ds, s += ss) std::memcpy(d, s, len);
    }
}

bool layout_move_whole(const Layout& ops, std::ptrdiff_t extent, std::int64_t count, void* mem, unsigned char* stream,
                       bool pack) noexcept {
    if (ops.size() != 1 || count <= 0) return false;
    LayoutOp b = ops[0];
    if (count > 1) {
        if (b.levels == 3) return false;
        b.count[b.levels] = count;
        b.stride[b.levels] = extent;
        ++b.levels;
        b.bytes *= static_cast<std::uint64_t>(count);
        normalize(b);
    }
    const auto base = reinterpret_cast<std::uintptr_t>(mem);
    if (pack) move_block<true>(stream, base, b);
    else move_block<false>(stream, base, b);
    return true;
}

LayoutCursor::LayoutCursor(const Layout& ops, std::ptrdiff_t extent, std::int64_t count, const void* base) noexcept
    : ops_(ops.data()), frames_(inline_frames_) {
    const auto addr = reinterpret_cast<std::uintptr_t>(base);
    if (count <= 0 || ops.empty()) {
        done_ = true;
        return;
    }
    std::uint32_t nops = static_cast<std::uint32_t>(ops.size());
    if (ops.size() == 1 && (count == 1 || ops[0].levels < 3)) {
        // One block per element: the elements become one more level of it.
        single_ = ops[0];
        if (count > 1) {
            single_.count[single_.levels] = count;
            single_.stride[single_.levels] = extent;
            ++single_.levels;
            single_.bytes *= static_cast<std::uint64_t>(count);
            normalize(single_);
            count = 1;
        }
        ops_ = &single_;
        nops = 1;
    }
    frames_[0] = Frame{0, nops, 0, count, extent, addr};
    depth_ = 1;
    pc_ = 0;
}

LayoutCursor::~LayoutCursor() = default;

// Deeply nested types (more loops than the inline frames hold) move the
// stack to the heap.
void LayoutCursor::grow() {
    std::vector<Frame> bigger(capacity_ * 2);
    std::copy(frames_, frames_ + depth_, bigger.begin());
    heap_frames_ = std::move(bigger);
    frames_ = heap_frames_.data();
    capacity_ = heap_frames_.size();
}

bool LayoutCursor::settle() noexcept {
    if (done_) return false;
    for (;;) {
        Frame& f = frames_[depth_ - 1];
        if (pc_ == f.end) {
            if (++f.iter < f.count) {
                f.base += static_cast<std::uintptr_t>(f.stride);
                pc_ = f.begin;
                continue;
            }
            if (depth_ == 1) {
                done_ = true;
                return false;
            }
            --depth_;  // pc_ == f.end: the op after the loop, in the parent's body
            continue;
        }
        const LayoutOp& op = ops_[pc_];
        if (op.is_loop()) {
            if (depth_ == capacity_) grow();
            Frame& parent = frames_[depth_ - 1];
            frames_[depth_] = Frame{pc_ + 1, pc_ + 1 + op.body, 0, op.count[0], op.stride[0],
                                    parent.base + static_cast<std::uintptr_t>(op.offset)};
            ++depth_;
            ++pc_;
            continue;
        }
        return true;
    }
}

std::uintptr_t LayoutCursor::run_address(const LayoutOp& op) const noexcept {
    return frames_[depth_ - 1].base +
           static_cast<std::uintptr_t>(op.offset + i_[2] * op.stride[2] + i_[1] * op.stride[1] + i_[0] * op.stride[0]) +
           off_;
}

bool LayoutCursor::run(unsigned char** p, std::size_t* len) noexcept {
    if (!settle()) return false;
    const LayoutOp& op = ops_[pc_];
    *p = reinterpret_cast<unsigned char*>(run_address(op));
    *len = op.len - off_;
    return true;
}

void LayoutCursor::advance(std::size_t n) noexcept {
    off_ += n;
    if (off_ < ops_[pc_].len) return;
    skip_runs(1);
}

bool LayoutCursor::row(unsigned char** p, std::size_t* len, std::ptrdiff_t* stride, std::int64_t* runs) noexcept {
    if (!settle()) return false;
    const LayoutOp& op = ops_[pc_];
    *p = reinterpret_cast<unsigned char*>(run_address(op));
    *len = op.len - off_;
    *stride = op.stride[0];
    *runs = off_ ? 1 : op.count[0] - i_[0];
    return true;
}

void LayoutCursor::skip_runs(std::int64_t k) noexcept {
    const LayoutOp& op = ops_[pc_];
    off_ = 0;
    if ((i_[0] += k) < op.count[0]) return;
    i_[0] = 0;
    if (++i_[1] < op.count[1]) return;
    i_[1] = 0;
    if (++i_[2] < op.count[2]) return;
    i_[2] = 0;
    ++pc_;
}

std::size_t LayoutCursor::pack(unsigned char* out, std::size_t n) noexcept {
    std::size_t done = 0;
    while (done < n && settle()) {
        const LayoutOp& op = ops_[pc_];
        if (at_block_start() && op.bytes <= n - done) {
            move_block<true>(out + done, frames_[depth_ - 1].base, op);
            done += op.bytes;
            ++pc_;
            continue;
        }
        // A block only partly wanted, or resumed mid-way: run by run.
        std::size_t k = std::min(op.len - off_, n - done);
        std::memcpy(out + done, reinterpret_cast<const void*>(run_address(op)), k);
        done += k;
        advance(k);
    }
    return done;
}

std::size_t LayoutCursor::unpack(const unsigned char* in, std::size_t n) noexcept {
    std::size_t done = 0;
    while (done < n && settle()) {
        const LayoutOp& op = ops_[pc_];
        if (at_block_start() && op.bytes <= n - done) {
            move_block<false>(const_cast<unsigned char*>(in + done), frames_[depth_ - 1].base, op);
            done += op.bytes;
            ++pc_;
            continue;
        }
        std::size_t k = std::min(op.len - off_, n - done);
        std::memcpy(reinterpret_cast<void*>(run_address(op)), in + done, k);
        done += k;
        advance(k);
    }
    return done;
}

}  // namespace hmpi
