// Datatype engine tests: random nested types built through the core
// constructors, checked against a naive type map (one entry per basic
// element) expanded in the test: layout runs, pack, unpack, copies between
// two layouts, streams in pieces, element counts, bounds.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "core/datatype.hpp"

using namespace hmpi;

namespace {

struct DoubleInt {
    double d;
    int i;
};

// The reference: every basic element of one element of the type, in order.
struct Entry {
    std::ptrdiff_t offset;
    std::size_t size;
};
struct Naive {
    std::vector<Entry> entries;
    std::ptrdiff_t lb = 0, ub = 0;
    bool has_entries = true;            // data or bound markers
    bool lb_marker = false, ub_marker = false;  // set by resized, sticky
};

// A derived type and its reference, built side by side.
struct Built {
    Datatype* type = nullptr;  // owned (released by the test) or predefined
    Naive naive;
};

Naive naive_predefined(MPI_Datatype h) {
    const Datatype& t = *datatype_from_handle(h);
    Naive n;
    for (const LayoutOp& op : t.typed) {
        const std::size_t unit = datatype_from_handle(op.basic)->size;
        for (std::size_t k = 0; k < op.len; k += unit) n.entries.push_back({op.offset + static_cast<std::ptrdiff_t>(k), unit});
    }
    n.lb = t.lb;
    n.ub = t.ub;
    return n;
}

// MPI-2.2 4.1.6: bounds are the extremes of the copies' bounds, taken only
// over copies with sticky markers when there are any.
Naive naive_parts(const std::vector<TypePart>& parts, const std::vector<const Naive*>& refs) {
    Naive n;
    n.has_entries = false;
    std::ptrdiff_t lb_all = 0, ub_all = 0, lb_m = 0, ub_m = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const TypePart& p = parts[i];
        const Naive& r = *refs[i];
        const std::ptrdiff_t ext = r.ub - r.lb;
        for (std::int64_t k = 0; k < p.repeat; ++k)
            for (std::int64_t b = 0; b < p.blocklength; ++b) {
                const std::ptrdiff_t at = p.disp + k * p.stride + b * ext;
                for (const Entry& e : r.entries) n.entries.push_back({at + e.offset, e.size});
                if (!r.has_entries) continue;
                lb_all = n.has_entries ? std::min(lb_all, at + r.lb) : at + r.lb;
                ub_all = n.has_entries ? std::max(ub_all, at + r.ub) : at + r.ub;
                n.has_entries = true;
                if (r.lb_marker) lb_m = n.lb_marker ? std::min(lb_m, at + r.lb) : at + r.lb, n.lb_marker = true;
                if (r.ub_marker) ub_m = n.ub_marker ? std::max(ub_m, at + r.ub) : at + r.ub, n.ub_marker = true;
            }
    }
    n.lb = n.lb_marker ? lb_m : n.has_entries ? lb_all : 0;
    n.ub = n.ub_marker ? ub_m : n.has_entries ? ub_all : 0;
    return n;
}

const MPI_Datatype kLeaves[] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_SHORT, MPI_DOUBLE_INT, MPI_SHORT_INT, MPI_2INT};

class Generator {
public:
    explicit Generator(std::uint64_t seed) : rng_(seed) {}
    ~Generator() {
        for (Datatype* t : owned_) datatype_release(t);
    }
    int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

    Built make(int depth) {
        if (depth == 0 || pick(0, 4) == 0) {
            MPI_Datatype h = kLeaves[pick(0, 6)];
            return {const_cast<Datatype*>(datatype_from_handle(h)), naive_predefined(h)};
        }
        const int kind = pick(0, 5);
        if (kind == 5) {  // resized around the child
            Built child = make(depth - 1);
            const std::ptrdiff_t lb = child.naive.lb - pick(0, 8);
            const std::ptrdiff_t ext = (child.naive.ub - child.naive.lb) + pick(0, 16);
            Built out;
            REQUIRE(datatype_resized(*child.type, lb, ext, &out.type) == MPI_SUCCESS);
            owned_.push_back(out.type);
            out.naive = child.naive;
            out.naive.lb = lb;
            out.naive.ub = lb + ext;
            out.naive.has_entries = out.naive.lb_marker = out.naive.ub_marker = true;
            return out;
        }
        std::vector<Built> children;
        std::vector<TypePart> parts;
        const int nparts = kind == 4 ? pick(1, 3) : kind == 3 ? pick(1, 4) : 1;
        Built first = make(depth - 1);
        for (int i = 0; i < nparts; ++i) {
            Built child = (kind == 4 && i > 0) ? make(depth - 1) : first;
            const std::ptrdiff_t ext = child.naive.ub - child.naive.lb;
            TypePart p{child.type, 0, 1};
            switch (kind) {
                case 0: p.blocklength = pick(0, 5); break;                        // contiguous
                case 1:                                                            // vector
                    p.blocklength = pick(1, 3);
                    p.repeat = pick(1, 5);
                    p.stride = ext * (pick(0, 1) ? pick(p.blocklength, 5) : -pick(p.blocklength, 5));
                    break;
                case 2:  // hvector with a byte stride (may overlap: legal for sending)
                    p.blocklength = pick(1, 2);
                    p.repeat = pick(2, 40);
                    p.stride = pick(-64, 64);
                    break;
                case 3:  // indexed: blocks in random places
                    p.blocklength = pick(0, 3);
                    p.disp = ext * pick(-6, 6);
                    break;
                default:  // struct: byte displacements
                    p.blocklength = pick(1, 3);
                    p.disp = pick(-40, 40);
            }
            parts.push_back(p);
            children.push_back(child);
        }
        std::vector<const Naive*> refs;
        for (const Built& c : children) refs.push_back(&c.naive);
        Built out;
        REQUIRE(datatype_build(parts.data(), parts.size(), false, &out.type) == MPI_SUCCESS);
        owned_.push_back(out.type);
        out.naive = naive_parts(parts, refs);
        return out;
    }

private:
    std::mt19937_64 rng_;
    std::vector<Datatype*> owned_;
};

// Memory offsets of every data byte of `count` elements, in packed order.
std::vector<std::ptrdiff_t> reference_bytes(const Naive& n, std::int64_t count) {
    std::vector<std::ptrdiff_t> out;
    const std::ptrdiff_t ext = n.ub - n.lb;
    for (std::int64_t e = 0; e < count; ++e)
        for (const Entry& en : n.entries)
            for (std::size_t k = 0; k < en.size; ++k) out.push_back(e * ext + en.offset + static_cast<std::ptrdiff_t>(k));
    return out;
}

// A buffer covering the offsets, addressed relative to `origin`.
struct Arena {
    std::vector<unsigned char> mem;
    std::ptrdiff_t shift = 0;
    explicit Arena(const std::vector<std::ptrdiff_t>& offs) {
        std::ptrdiff_t lo = 0, hi = 1;
        for (std::ptrdiff_t o : offs) lo = std::min(lo, o), hi = std::max(hi, o + 1);
        shift = -lo;
        mem.resize(static_cast<std::size_t>(hi - lo));
        for (std::size_t i = 0; i < mem.size(); ++i) mem[i] = static_cast<unsigned char>(i * 131 + 7);
    }
    unsigned char* origin() { return mem.data() + shift; }
    unsigned char& at(std::ptrdiff_t off) { return mem[static_cast<std::size_t>(off + shift)]; }
};

}  // namespace

TEST_CASE("predefined types have the sizes and extents the standard implies") {
    CHECK(datatype_from_handle(MPI_INT)->size == sizeof(int));
    CHECK(datatype_from_handle(MPI_DOUBLE)->size == sizeof(double));
    CHECK(datatype_from_handle(MPI_DATATYPE_NULL) == nullptr);
    const Datatype* di = datatype_from_handle(MPI_DOUBLE_INT);
    REQUIRE(di);
    CHECK(di->size == sizeof(double) + sizeof(int));
    CHECK(di->extent == static_cast<std::ptrdiff_t>(sizeof(DoubleInt)));
    CHECK_FALSE(di->contiguous);
    CHECK(datatype_from_handle(MPI_2INT)->basic_count == 2);
    CHECK(datatype_from_handle(MPI_LB)->size == 0);
    CHECK(datatype_from_handle(MPI_UB)->ub_marker);
    CHECK(datatype_from_handle(MPI_LONG)->external32_size == 4);
    CHECK(datatype_from_handle(MPI_LONG_DOUBLE)->external32_size == 16);
}

TEST_CASE("a vector of a million doubles is one block") {
    const Datatype& d = *datatype_from_handle(MPI_DOUBLE);
    TypePart p{&d, 0, 1, 1000000, 16};
    Datatype* v;
    REQUIRE(datatype_build(&p, 1, false, &v) == MPI_SUCCESS);
    CHECK(v->flat.size() == 1);
    CHECK(v->typed.size() == 1);
    CHECK(v->uniform_basic == MPI_DOUBLE);
    CHECK(v->extent == 16 * 999999 + 8);
    // A contiguous of vectors of struct-like pairs stays small too.
    TypePart q{datatype_from_handle(MPI_SHORT_INT), 0, 3, 1000, 40};
    Datatype* w;
    REQUIRE(datatype_build(&q, 1, false, &w) == MPI_SUCCESS);
    CHECK(w->flat.size() <= 8);
    CHECK(w->uniform_basic == MPI_SHORT_INT);
    std::size_t blocks = 0, elements = 0;
    for_each_block(*w, 1, [&](std::ptrdiff_t, std::size_t n) { ++blocks, elements += n; });
    CHECK(blocks == 1000);
    CHECK(elements == 3000);
    datatype_release(w);
    datatype_release(v);
}

TEST_CASE("random nested types: runs, pack, unpack, partial data, streams, element counts") {
    for (std::uint64_t seed = 1; seed <= 400; ++seed) {
        Generator gen(seed);
        Built b = gen.make(gen.pick(1, 4));
        const Datatype& t = *b.type;
        CAPTURE(seed);
        std::size_t naive_size = 0;
        for (const Entry& e : b.naive.entries) naive_size += e.size;
        REQUIRE(t.size == naive_size);
        REQUIRE(t.basic_count == static_cast<std::int64_t>(b.naive.entries.size()));
        REQUIRE(t.lb == b.naive.lb);
        REQUIRE(t.ub == b.naive.ub);
        if (t.size == 0) continue;
        const std::int64_t count = gen.pick(1, 4);
        const std::vector<std::ptrdiff_t> ref = reference_bytes(b.naive, count);
        const std::size_t total = ref.size();

        // Runs cover exactly the reference bytes, in order.
        std::vector<std::ptrdiff_t> walked;
        for_each_run(t, count, [&](std::ptrdiff_t off, std::size_t len) {
            for (std::size_t k = 0; k < len; ++k) walked.push_back(off + static_cast<std::ptrdiff_t>(k));
        });
        REQUIRE(walked == ref);

        // Pack: byte i of the stream is the byte at ref[i].
        Arena src(ref);
        std::vector<unsigned char> packed(total);
        pack_bytes(src.origin(), t, total, packed.data());
        int bad = 0;
        for (std::size_t i = 0; i < total; ++i) bad += packed[i] != src.at(ref[i]);
        REQUIRE(bad == 0);

        // A truncated pack stops exactly after `part` bytes.
        const std::size_t part = static_cast<std::size_t>(gen.pick(0, static_cast<int>(total)));
        std::vector<unsigned char> partial(total + 1, 0xEE);
        pack_bytes(src.origin(), t, part, partial.data());
        for (std::size_t i = 0; i < part; ++i) bad += partial[i] != src.at(ref[i]);
        bad += partial[part] != 0xEE;
        REQUIRE(bad == 0);

        // Unpack writes the stream back; bytes outside the type map keep their value.
        Arena dst(ref);
        std::vector<unsigned char> before = dst.mem;
        std::vector<unsigned char> stream(total);
        for (std::size_t i = 0; i < total; ++i) stream[i] = static_cast<unsigned char>(i * 7 + seed);
        unpack_bytes(stream.data(), total, dst.origin(), t);
        // The last write to a location wins when the type map overlaps itself.
        std::vector<unsigned char> expect = before;
        for (std::size_t i = 0; i < total; ++i) expect[static_cast<std::size_t>(ref[i] + dst.shift)] = stream[i];
        REQUIRE(dst.mem == expect);

        // Streams in random pieces give the same bytes.
        std::vector<unsigned char> pieces(total);
        {
            TypedStream s(src.origin(), t, count);
            for (std::size_t done = 0; done < total;) {
                std::size_t n = std::min<std::size_t>(total - done, static_cast<std::size_t>(gen.pick(1, 23)));
                s.pack(pieces.data() + done, n);
                done += n;
            }
        }
        REQUIRE(pieces == packed);

        // Element counts: whole basic elements of a prefix, -1 inside one.
        std::size_t prefix = 0;
        std::int64_t elems = 0;
        const std::int64_t target = gen.pick(0, static_cast<int>(b.naive.entries.size() * static_cast<std::size_t>(count)));
        for (std::int64_t k = 0; k < target; ++k) prefix += b.naive.entries[static_cast<std::size_t>(k) % b.naive.entries.size()].size, ++elems;
        CHECK(datatype_elements(t, static_cast<std::int64_t>(prefix)) == elems);
        CHECK(datatype_bytes_of_elements(t, elems) == static_cast<std::int64_t>(prefix));
        if (elems < target || true) {
            const Entry& next = b.naive.entries[static_cast<std::size_t>(elems) % b.naive.entries.size()];
            if (next.size > 1 && static_cast<std::int64_t>(prefix) + 1 <= static_cast<std::int64_t>(total))
                CHECK(datatype_elements(t, static_cast<std::int64_t>(prefix) + 1) == -1);
        }
    }
}

TEST_CASE("copy_typed between two random layouts with the same byte count") {
    int tried = 0;
    for (std::uint64_t seed = 1000; seed < 1600 && tried < 150; ++seed) {
        Generator gen(seed);
        Built a = gen.make(gen.pick(1, 3));
        Built b = gen.make(gen.pick(1, 3));
        if (a.type->size == 0 || b.type->size == 0) continue;
        // Counts with equal byte totals: lcm-ish via repetition.
        const std::size_t sa = a.type->size, sb = b.type->size;
        std::int64_t ca = 1, cb = 1;
        while (ca * static_cast<std::int64_t>(sa) != cb * static_cast<std::int64_t>(sb) && ca < 64) {
            if (ca * static_cast<std::int64_t>(sa) < cb * static_cast<std::int64_t>(sb)) ++ca;
            else ++cb;
        }
        if (ca * static_cast<std::int64_t>(sa) != cb * static_cast<std::int64_t>(sb)) continue;
        ++tried;
        CAPTURE(seed);
        const std::vector<std::ptrdiff_t> ra = reference_bytes(a.naive, ca), rb = reference_bytes(b.naive, cb);
        // The receiving map must not write a location twice for the check to be simple.
        std::vector<std::ptrdiff_t> sorted = rb;
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) continue;
        Arena src(ra), dst(rb);
        const std::size_t bytes = ra.size() - static_cast<std::size_t>(gen.pick(0, static_cast<int>(std::min<std::size_t>(ra.size(), 5))));
        std::vector<unsigned char> expect = dst.mem;
        for (std::size_t i = 0; i < bytes; ++i) expect[static_cast<std::size_t>(rb[i] + dst.shift)] = src.at(ra[i]);
        copy_typed(src.origin(), *a.type, dst.origin(), *b.type, bytes);
        REQUIRE(dst.mem == expect);
    }
    CHECK(tried > 50);
}

TEST_CASE("subarray and darray place the elements an index enumeration gives") {
    const Datatype& i32 = *datatype_from_handle(MPI_INT);
    const int sizes[3] = {5, 6, 7}, subsizes[3] = {2, 3, 4}, starts[3] = {1, 2, 3};
    for (int order : {MPI_ORDER_C, MPI_ORDER_FORTRAN}) {
        Datatype* t;
        REQUIRE(datatype_subarray(3, sizes, subsizes, starts, order, i32, &t) == MPI_SUCCESS);
        std::vector<std::ptrdiff_t> want;
        for (int a = 0; a < subsizes[0]; ++a)
            for (int b = 0; b < subsizes[1]; ++b)
                for (int c = 0; c < subsizes[2]; ++c) {
                    int i0 = starts[0] + a, i1 = starts[1] + b, i2 = starts[2] + c;
                    if (order == MPI_ORDER_C) want.push_back(((i0 * sizes[1] + i1) * sizes[2] + i2) * 4);
                    else want.push_back(0);  // filled below in Fortran order
                }
        if (order == MPI_ORDER_FORTRAN) {
            want.clear();
            for (int c = 0; c < subsizes[2]; ++c)
                for (int b = 0; b < subsizes[1]; ++b)
                    for (int a = 0; a < subsizes[0]; ++a) {
                        int i0 = starts[0] + a, i1 = starts[1] + b, i2 = starts[2] + c;
                        want.push_back(((i2 * sizes[1] + i1) * sizes[0] + i0) * 4);
                    }
        }
        std::vector<std::ptrdiff_t> got;
        for_each_run(*t, 1, [&](std::ptrdiff_t off, std::size_t len) {
            for (std::size_t k = 0; k < len; k += 4) got.push_back(off + static_cast<std::ptrdiff_t>(k));
        });
        CHECK(got == want);
        CHECK(t->lb == 0);
        CHECK(t->extent == 5 * 6 * 7 * 4);
        datatype_release(t);
    }
    // darray: 2 x 3 process grid over a 7 x 10 array, cyclic(2) by block.
    const int gsizes[2] = {7, 10}, distribs[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK},
              dargs[2] = {2, MPI_DISTRIBUTE_DFLT_DARG}, psizes[2] = {2, 3};
    for (int rank = 0; rank < 6; ++rank) {
        Datatype* t;
        REQUIRE(datatype_darray(6, rank, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, i32, &t) == MPI_SUCCESS);
        const int p0 = rank / 3, p1 = rank % 3;
        std::vector<std::ptrdiff_t> want;
        for (int i = 0; i < 7; ++i)
            for (int j = 0; j < 10; ++j)
                if ((i / 2) % 2 == p0 && j / 4 == p1) want.push_back((i * 10 + j) * 4);
        std::vector<std::ptrdiff_t> got;
        for_each_run(*t, 1, [&](std::ptrdiff_t off, std::size_t len) {
            for (std::size_t k = 0; k < len; k += 4) got.push_back(off + static_cast<std::ptrdiff_t>(k));
        });
        CHECK(got == want);
        CHECK(t->extent == 7 * 10 * 4);
        datatype_release(t);
    }
}

TEST_CASE("struct padding, sticky markers and true extent") {
    const Datatype* d = datatype_from_handle(MPI_DOUBLE);
    const Datatype* ch = datatype_from_handle(MPI_CHAR);
    TypePart parts[2] = {{d, 0, 1}, {ch, 8, 1}};
    Datatype* s;
    REQUIRE(datatype_build(parts, 2, true, &s) == MPI_SUCCESS);
    CHECK(s->size == 9);
    CHECK(s->extent == 16);  // padded to the double's alignment
    CHECK(s->true_ub - s->true_lb == 9);
    // An MPI_UB marker fixes the upper bound; an MPI_LB marker the lower one.
    TypePart marked[3] = {{datatype_from_handle(MPI_LB), -4, 1}, {s, 0, 1}, {datatype_from_handle(MPI_UB), 24, 1}};
    Datatype* m;
    REQUIRE(datatype_build(marked, 3, true, &m) == MPI_SUCCESS);
    CHECK(m->lb == -4);
    CHECK(m->ub == 24);
    CHECK(m->true_lb == 0);
    // Markers stick through a contiguous of the marked type.
    TypePart again{m, 0, 3};
    Datatype* c;
    REQUIRE(datatype_build(&again, 1, false, &c) == MPI_SUCCESS);
    CHECK(c->lb == -4);
    CHECK(c->extent == 3 * 28);
    datatype_release(c);
    datatype_release(m);
    datatype_release(s);
}

TEST_CASE("external32 is big-endian with the standard's sizes") {
    const Datatype& di = *datatype_from_handle(MPI_DOUBLE_INT);
    DoubleInt v{1.0, 0x01020304};
    unsigned char out[12];
    REQUIRE(pack_external32(&v, 1, di, out) == MPI_SUCCESS);
    const unsigned char want[12] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4};
    CHECK(std::memcmp(out, want, 12) == 0);
    DoubleInt back{0, 0};
    unpack_external32(out, 1, di, &back);
    CHECK(back.d == 1.0);
    CHECK(back.i == 0x01020304);
    long l = -5;
    unsigned char l4[4];
    REQUIRE(pack_external32(&l, 1, *datatype_from_handle(MPI_LONG), l4) == MPI_SUCCESS);
    const unsigned char lw[4] = {0xff, 0xff, 0xff, 0xfb};
    CHECK(std::memcmp(l4, lw, 4) == 0);
    long big = 1L << 40;
    CHECK(pack_external32(&big, 1, *datatype_from_handle(MPI_LONG), l4) == MPI_ERR_CONVERSION);
    long double x = 1.5L;
    unsigned char q[16];
    REQUIRE(pack_external32(&x, 1, *datatype_from_handle(MPI_LONG_DOUBLE), q) == MPI_SUCCESS);
    CHECK(q[0] == 0x3f);
    CHECK(q[1] == 0xff);
    CHECK(q[2] == 0x80);
    long double y = 0;
    unpack_external32(q, 1, *datatype_from_handle(MPI_LONG_DOUBLE), &y);
    CHECK(y == 1.5L);
}

TEST_CASE("handles: derived types resolve, freed ones are recognized as freed") {
    const Datatype& i32 = *datatype_from_handle(MPI_INT);
    TypePart p{&i32, 0, 3};
    Datatype* t;
    REQUIRE(datatype_build(&p, 1, false, &t) == MPI_SUCCESS);
    const MPI_Datatype h = t->handle;
    CHECK(datatype_from_handle(h) == t);
    CHECK_FALSE(t->committed);
    CHECK(classify_bad_datatype(MPI_DATATYPE_NULL) == BadDatatype::null);
    CHECK(classify_bad_datatype(reinterpret_cast<MPI_Datatype>(0x2ff)) == BadDatatype::not_a_datatype);
    // The user frees it while a "request" still holds it: invalid handle, live object.
    datatype_retain(t);
    t->freed = true;
    datatype_release(t);
    CHECK(datatype_from_handle(h) == nullptr);
    CHECK(classify_bad_datatype(h) == BadDatatype::freed);
    CHECK(t->size == 12);  // still usable by the holder
    datatype_release(t);   // the holder is done: destroyed, but the handle still reads as freed
    CHECK(datatype_from_handle(h) == nullptr);
    CHECK(classify_bad_datatype(h) == BadDatatype::freed);
}

TEST_CASE("copy_typed between rows of different run lengths and across partial rows") {
    const Datatype& d = *datatype_from_handle(MPI_DOUBLE);
    // 12 doubles as blocks of 3 (stride 5) -> blocks of 2 (stride 3) -> every other double.
    TypePart pa{&d, 0, 3, 4, 40}, pb{&d, 0, 2, 6, 24}, pc{&d, 0, 1, 12, 16};
    Datatype *a, *b, *c;
    REQUIRE(datatype_build(&pa, 1, false, &a) == MPI_SUCCESS);
    REQUIRE(datatype_build(&pb, 1, false, &b) == MPI_SUCCESS);
    REQUIRE(datatype_build(&pc, 1, false, &c) == MPI_SUCCESS);
    std::vector<double> src(20), mid(18, -1), dst(24, -1);
    for (int i = 0; i < 20; ++i) src[static_cast<std::size_t>(i)] = i;
    copy_typed(src.data(), *a, mid.data(), *b, 12 * 8);
    copy_typed(mid.data(), *b, dst.data(), *c, 11 * 8 + 3);  // the last double only partly
    const int order[12] = {0, 1, 2, 5, 6, 7, 10, 11, 12, 15, 16, 17};
    for (int k = 0; k < 11; ++k) CHECK(dst[static_cast<std::size_t>(2 * k)] == order[k]);
    for (int k = 0; k < 12; ++k) CHECK(dst[static_cast<std::size_t>(2 * k + 1)] == -1);
    unsigned char last[8];
    std::memcpy(last, &dst[22], 8);
    double want = 17, minus = -1;
    CHECK(std::memcmp(last, &want, 3) == 0);
    CHECK(std::memcmp(last + 3, reinterpret_cast<unsigned char*>(&minus) + 3, 5) == 0);
    datatype_release(a);
    datatype_release(b);
    datatype_release(c);
}
