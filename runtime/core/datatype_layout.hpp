// The flattened form of a datatype: a small program of strided blocks and
// loops, built once when the type is constructed, walked by every copy.
//
// Why this shape: MPI types are nested repetitions (vector of struct of
// vector ...). Expanding them into (offset, length) segments costs one entry
// per contiguous piece - a million entries for a vector of a million
// doubles - and a copy loop that reads a descriptor per 8 bytes. Instead a
// *block* describes a run of `len` bytes repeated in up to three nested
// strides (a 3-D sub-box of a C array is one block), and a *loop* repeats the
// ops that follow it (a vector of a struct with holes is one loop over the
// struct's blocks). The builder merges a block into the one before it when
// the second continues the first's pattern, so regular shapes stay small
// whatever constructors produced them.
//
// A program lists its ops in type-map order. Offsets are relative to the
// enclosing loop's base (the buffer address at top level).
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hmpi {

struct LayoutOp {
    std::ptrdiff_t offset = 0;
    std::uint64_t bytes = 0;  // packed bytes of the whole op, all repetitions
    // Block: bytes per run (a multiple of the basic type's size in typed programs).
    // Loop: 0.
    std::size_t len = 0;
    // Loop: the number of ops that follow and form its body (nested loops'
    // bodies included). Block: 0.
    std::uint32_t body = 0;
    // Block: how many of count/stride are used (0..3), innermost first.
    // Loop: 1 (count[0] iterations, stride[0] apart).
    std::uint32_t levels = 0;
    // Typed programs: the basic type of every element in the run.
    MPI_Datatype basic = MPI_DATATYPE_NULL;
    std::int64_t count[3] = {1, 1, 1};
    std::ptrdiff_t stride[3] = {0, 0, 0};

    bool is_loop() const noexcept { return body != 0; }
};

using Layout = std::vector<LayoutOp>;

// Deepest loop nesting of a program (the cursor's stack depth).
std::size_t layout_depth(const Layout& ops) noexcept;

// Builds a program by appending repetitions of other programs. In a typed
// builder, blocks of different basic types never merge.
class LayoutBuilder {
public:
    explicit LayoutBuilder(bool typed) noexcept : typed_(typed) {}
    // Appends n copies of `src`, the k-th at base + k * stride.
    void append(const Layout& src, std::ptrdiff_t base, std::int64_t n, std::ptrdiff_t stride);
    // Appends `repeat` blocks `stride` apart from `disp`, each made of
    // `blocklength` copies of src `extent` apart.
    void append_blocks(const Layout& src, std::ptrdiff_t extent, std::ptrdiff_t disp, std::int64_t blocklength,
                       std::int64_t repeat, std::ptrdiff_t stride);
    Layout take() { return std::move(ops_); }

private:
    void append_once(const Layout& src, std::ptrdiff_t base);
    void push_block(LayoutOp b);
    void push_loop(const LayoutOp* loop, std::ptrdiff_t base_shift);

    bool typed_;
    Layout ops_;
    // Index of the last top-level op, or npos.
    std::size_t last_top_ = static_cast<std::size_t>(-1);
};

// Moves all of `count` elements between memory and a packed stream when
// the layout is a single block (the common case: no cursor needed). False
// if it is not; then use a LayoutCursor.
bool layout_move_whole(const Layout& ops, std::ptrdiff_t extent, std::int64_t count, void* mem, unsigned char* stream,
                       bool pack) noexcept;

// Copies k runs of len bytes, the i-th from s + i * ss to d + i * ds.
void copy_rows(unsigned char* d, std::ptrdiff_t ds, const unsigned char* s, std::ptrdiff_t ss, std::size_t len,
               std::int64_t k) noexcept;

// Walks the packed byte stream of `count` elements of a program (elements
// `extent` apart) and moves bytes between it and memory. Resumable: each call
// continues where the previous one stopped, so a stream can be produced or
// consumed in pieces, and two cursors can walk two layouts side by side.
class LayoutCursor {
public:
    LayoutCursor(const Layout& ops, std::ptrdiff_t extent, std::int64_t count, const void* base) noexcept;
    ~LayoutCursor();
    LayoutCursor(const LayoutCursor&) = delete;
    LayoutCursor& operator=(const LayoutCursor&) = delete;

    // Copies the next min(n, left) bytes from memory to out / from in to
    // memory. Returns the bytes moved.
    std::size_t pack(unsigned char* out, std::size_t n) noexcept;
    std::size_t unpack(const unsigned char* in, std::size_t n) noexcept;
    // The current run: its address and the bytes left in it. False at the end.
    bool run(unsigned char** p, std::size_t* len) noexcept;
    // The basic type of the current run (typed programs), after run() returned true.
    MPI_Datatype run_basic() const noexcept { return ops_[pc_].basic; }
    // Moves past n bytes of the current run (n <= the length run() gave).
    void advance(std::size_t n) noexcept;
    // The rest of the current row of runs: `runs` runs of `len` bytes,
    // `stride` apart, the first at `p` (one run, the rest of it, when the
    // cursor stopped inside a run). False at the end.
    bool row(unsigned char** p, std::size_t* len, std::ptrdiff_t* stride, std::int64_t* runs) noexcept;
    // Moves past the first k runs of that row (k <= runs).
    void skip_runs(std::int64_t k) noexcept;

private:
    struct Frame {
        std::uint32_t begin, end;  // ops [begin, end) form the body
        std::int64_t iter, count;
        std::ptrdiff_t stride;
        std::uintptr_t base;  // address of this iteration
    };
    bool settle() noexcept;  // moves to the next block; false at the end
    void grow();
    bool at_block_start() const noexcept { return (i_[0] | i_[1] | i_[2]) == 0 && off_ == 0; }
    std::uintptr_t run_address(const LayoutOp& op) const noexcept;

    Frame inline_frames_[8];
    const LayoutOp* ops_;
    Frame* frames_;
    std::size_t depth_ = 0;
    std::size_t capacity_ = sizeof inline_frames_ / sizeof inline_frames_[0];
    std::uint32_t pc_ = 0;
    std::int64_t i_[3] = {0, 0, 0};
    std::size_t off_ = 0;
    bool done_ = false;
    LayoutOp single_;  // the whole message as one block, when it is one
    std::vector<Frame> heap_frames_;
};

// Calls fn(offset, length) for every data run of `count` elements, merging
// adjacent runs.
template <class Fn>
void layout_for_each_run(const Layout& ops, std::ptrdiff_t extent, std::int64_t count, Fn&& fn) {
    std::ptrdiff_t pend_off = 0;
    std::size_t pend_len = 0;
    auto emit = [&](std::ptrdiff_t off, std::size_t len) {
        if (pend_len && off == pend_off + static_cast<std::ptrdiff_t>(pend_len)) {
            pend_len += len;
            return;
        }
        if (pend_len) fn(pend_off, pend_len);
        pend_off = off;
        pend_len = len;
    };
    struct Walk {
        static void ops_at(const LayoutOp* ops, std::size_t n, std::ptrdiff_t base, decltype(emit)& out) {
            for (std::size_t i = 0; i < n;) {
                const LayoutOp& op = ops[i];
                if (op.is_loop()) {
                    for (std::int64_t k = 0; k < op.count[0]; ++k)
                        ops_at(ops + i + 1, op.body, base + op.offset + k * op.stride[0], out);
                    i += 1 + op.body;
                    continue;
                }
                for (std::int64_t a = 0; a < op.count[2]; ++a)
                    for (std::int64_t b = 0; b < op.count[1]; ++b)
                        for (std::int64_t c = 0; c < op.count[0]; ++c)
                            out(base + op.offset + a * op.stride[2] + b * op.stride[1] + c * op.stride[0], op.len);
                ++i;
            }
        }
    };
    for (std::int64_t e = 0; e < count; ++e) Walk::ops_at(ops.data(), ops.size(), e * extent, emit);
    if (pend_len) fn(pend_off, pend_len);
}

}  // namespace hmpi
