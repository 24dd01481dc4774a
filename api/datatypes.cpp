// Datatypes (MPI 3.1, chapter 4): constructors, commit and free, queries,
// names, decoding, addresses, packing (native and external32), and the
// status element counts. Arguments are checked here; the core
// (core/datatype.hpp) builds the flattened types and moves the data.
#include <climits>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "api/api.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace {

// ---- Argument checks shared by the constructors.

// An input type of a constructor or query: committed or not.
int input_type(const Call& c, const char* arg, MPI_Datatype h, const Datatype** out) {
    return c.type(nullptr, arg, h, out, false);
}

int nonnegative(const Call& c, const char* arg, std::int64_t v, int cls = MPI_ERR_ARG) {
    return v >= 0 ? MPI_SUCCESS : c.fail(nullptr, cls, "argument %s = %lld is negative", arg, static_cast<long long>(v));
}

int array_arg(const Call& c, const char* arg, const void* p, int count) {
    if (p || count == 0) return MPI_SUCCESS;
    return c.fail(nullptr, MPI_ERR_ARG, "argument %s is NULL but count = %d", arg, count);
}

int blocklengths_ok(const Call& c, int count, const int bl[]) {
    for (int i = 0; i < count; ++i)
        if (bl[i] < 0)
            return c.fail(nullptr, MPI_ERR_ARG, "argument array_of_blocklengths[%d] = %d is negative", i, bl[i]);
    return MPI_SUCCESS;
}

// The packed side of Pack, Unpack and their external32 forms: a buffer of
// `size` bytes, `position` where the next bytes go or come from, and `bytes`
// the call needs there.
int check_packed_buffer(const Call& c, const Comm* cm, const char* buf_arg, const void* buf, const char* size_arg,
                        std::int64_t size, std::int64_t position, __int128 bytes) {
    if (size < 0) return c.fail(cm, MPI_ERR_ARG, "argument %s = %lld is negative", size_arg, static_cast<long long>(size));
    if (position < 0 || position > size)
        return c.fail(cm, MPI_ERR_ARG, "argument *position = %lld is not in [0, %s = %lld]", static_cast<long long>(position),
                      size_arg, static_cast<long long>(size));
    if (bytes > size - position)
        return c.fail(cm, MPI_ERR_TRUNCATE, "the data needs %lld bytes, but %s has %lld left (%s %lld, position %lld)",
                      static_cast<long long>(bytes), buf_arg, static_cast<long long>(size - position), size_arg,
                      static_cast<long long>(size), static_cast<long long>(position));
    if (bytes && !buf) return c.fail(cm, MPI_ERR_BUFFER, "argument %s is NULL", buf_arg);
    return MPI_SUCCESS;
}

int overflow(const Call& c) {
    return c.fail(nullptr, MPI_ERR_COUNT,
                  "the new datatype's size or bounds would not fit in an MPI_Count (the counts and displacements are too large)");
}

// Builds the new type, records its envelope and hands the handle out.
struct TypeEnvelope {
    int combiner;
    std::vector<int> ints;
    std::vector<MPI_Aint> addrs;
    std::vector<const Datatype*> types;
};

int publish(const Call& c, int built, Datatype* t, TypeEnvelope env, MPI_Datatype* newtype) {
    if (built == MPI_ERR_COUNT) return overflow(c);
    if (built != MPI_SUCCESS) return c.fail(nullptr, built, "could not build the datatype");
    t->combiner = env.combiner;
    t->ints = std::move(env.ints);
    t->addrs = std::move(env.addrs);
    t->types = RetainedTypes{};
    for (const Datatype* in : env.types) t->types.push_back(in);
    t->committed = false;
    *newtype = t->handle;
    return MPI_SUCCESS;
}

int build_and_publish(const Call& c, const std::vector<TypePart>& parts, bool padding, TypeEnvelope env, MPI_Datatype* newtype) {
    Datatype* t = nullptr;
    int built = datatype_build(parts.data(), parts.size(), padding, &t);
    return publish(c, built, t, std::move(env), newtype);
}

Datatype* mutable_type(const Datatype* t) { return const_cast<Datatype*>(t); }

// ---- The constructors, shared between the MPI-2 names and the deprecated ones.

int vector_common(const char* name, int count, int blocklength, MPI_Aint stride, bool stride_in_bytes,
                  MPI_Datatype oldtype, MPI_Datatype* newtype, int combiner) {
    Call c(name);
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "newtype", newtype)) return e;
    if (int e = nonnegative(c, "count", count, MPI_ERR_COUNT)) return e;
    if (int e = nonnegative(c, "blocklength", blocklength)) return e;
    const Datatype* old;
    if (int e = input_type(c, "oldtype", oldtype, &old)) return e;
    const __int128 bytes = stride_in_bytes ? __int128(stride) : __int128(stride) * old->extent;
    if (bytes > PTRDIFF_MAX / 4 || bytes < PTRDIFF_MIN / 4) return overflow(c);
    std::vector<TypePart> parts{{old, 0, blocklength, count, static_cast<std::ptrdiff_t>(bytes)}};
    TypeEnvelope env{combiner, {count, blocklength}, {}, {old}};
    if (stride_in_bytes) env.addrs.push_back(stride);
    else env.ints.push_back(static_cast<int>(stride));
    return build_and_publish(c, parts, false, std::move(env), newtype);
}

template <class Disp>
int indexed_common(const char* name, int count, const int blocklengths[], const Disp displacements[],
                   bool disp_in_bytes, MPI_Datatype oldtype, MPI_Datatype* newtype, int combiner) {
    Call c(name);
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "newtype", newtype)) return e;
    if (int e = nonnegative(c, "count", count, MPI_ERR_COUNT)) return e;
    if (int e = array_arg(c, "array_of_blocklengths", blocklengths, count)) return e;
    if (int e = array_arg(c, "array_of_displacements", displacements, count)) return e;
    if (int e = blocklengths_ok(c, count, blocklengths)) return e;
    const Datatype* old;
    if (int e = input_type(c, "oldtype", oldtype, &old)) return e;
    std::vector<TypePart> parts;
    parts.reserve(static_cast<std::size_t>(count));
    TypeEnvelope env{combiner, {count}, {}, {old}};
    for (int i = 0; i < count; ++i) {
        const __int128 disp = disp_in_bytes ? __int128(displacements[i]) : __int128(displacements[i]) * old->extent;
        if (disp > PTRDIFF_MAX / 4 || disp < PTRDIFF_MIN / 4) return overflow(c);
        parts.push_back({old, static_cast<std::ptrdiff_t>(disp), blocklengths[i]});
        env.ints.push_back(blocklengths[i]);
    }
    for (int i = 0; i < count; ++i) {
        if (disp_in_bytes) env.addrs.push_back(static_cast<MPI_Aint>(displacements[i]));
        else env.ints.push_back(static_cast<int>(displacements[i]));
    }
    return build_and_publish(c, parts, false, std::move(env), newtype);
}

template <class Disp>
int indexed_block_common(const char* name, int count, int blocklength, const Disp displacements[], bool disp_in_bytes,
                         MPI_Datatype oldtype, MPI_Datatype* newtype, int combiner) {
    Call c(name);
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "newtype", newtype)) return e;
    if (int e = nonnegative(c, "count", count, MPI_ERR_COUNT)) return e;
    if (int e = nonnegative(c, "blocklength", blocklength)) return e;
    if (int e = array_arg(c, "array_of_displacements", displacements, count)) return e;
    const Datatype* old;
    if (int e = input_type(c, "oldtype", oldtype, &old)) return e;
    std::vector<TypePart> parts;
    parts.reserve(static_cast<std::size_t>(count));
    TypeEnvelope env{combiner, {count, blocklength}, {}, {old}};
    for (int i = 0; i < count; ++i) {
        const __int128 disp = disp_in_bytes ? __int128(displacements[i]) : __int128(displacements[i]) * old->extent;
        if (disp > PTRDIFF_MAX / 4 || disp < PTRDIFF_MIN / 4) return overflow(c);
        parts.push_back({old, static_cast<std::ptrdiff_t>(disp), blocklength});
        if (disp_in_bytes) env.addrs.push_back(static_cast<MPI_Aint>(displacements[i]));
        else env.ints.push_back(static_cast<int>(displacements[i]));
    }
    return build_and_publish(c, parts, false, std::move(env), newtype);
}

int struct_common(const char* name, int count, const int blocklengths[], const MPI_Aint displacements[],
                  const MPI_Datatype types[], MPI_Datatype* newtype) {
    Call c(name);
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "newtype", newtype)) return e;
    if (int e = nonnegative(c, "count", count, MPI_ERR_COUNT)) return e;
    if (int e = array_arg(c, "array_of_blocklengths", blocklengths, count)) return e;
    if (int e = array_arg(c, "array_of_displacements", displacements, count)) return e;
    if (int e = array_arg(c, "array_of_types", types, count)) return e;
    if (int e = blocklengths_ok(c, count, blocklengths)) return e;
    std::vector<TypePart> parts;
    parts.reserve(static_cast<std::size_t>(count));
    TypeEnvelope env{MPI_COMBINER_STRUCT, {count}, {}, {}};
    for (int i = 0; i < count; ++i) {
        const Datatype* t;
        char arg[48];
        std::snprintf(arg, sizeof arg, "array_of_types[%d]", i);
        if (int e = input_type(c, arg, types[i], &t)) return e;
        parts.push_back({t, static_cast<std::ptrdiff_t>(displacements[i]), blocklengths[i]});
        env.ints.push_back(blocklengths[i]);
        env.addrs.push_back(displacements[i]);
        env.types.push_back(t);
    }
    return build_and_publish(c, parts, true, std::move(env), newtype);
}

// ---- Names of predefined types, per rank (MPI object names are per process).

std::mutex g_names_lock;
std::map<std::pair<const Rank*, MPI_Datatype>, std::string> g_predefined_names;

// ---- Queries shared by the MPI_Aint and MPI_Count variants.

template <class T>
int extent_query(const char* name, MPI_Datatype datatype, T* lb, T* extent, bool true_extent) {
    Call c(name);
    if (int e = c.require_initialized()) return e;
    const Datatype* t;
    if (int e = input_type(c, "datatype", datatype, &t)) return e;
    if (int e = c.not_null(nullptr, true_extent ? "true_lb" : "lb", lb)) return e;
    if (int e = c.not_null(nullptr, true_extent ? "true_extent" : "extent", extent)) return e;
    *lb = static_cast<T>(true_extent ? t->true_lb : t->lb);
    *extent = static_cast<T>(true_extent ? t->true_ub - t->true_lb : t->extent);
    return MPI_SUCCESS;
}

int bound_query(const char* name, MPI_Datatype datatype, MPI_Aint* out, int which) {
    Call c(name);
    if (int e = c.require_initialized()) return e;
    const Datatype* t;
    if (int e = input_type(c, "datatype", datatype, &t)) return e;
    if (int e = c.not_null(nullptr, which == 0 ? "extent" : "displacement", out)) return e;
    *out = which == 0 ? t->extent : which == 1 ? t->lb : t->ub;
    return MPI_SUCCESS;
}

// ---- Packing.

int check_datarep(const Call& c, const char* datarep) {
    if (int e = c.not_null(nullptr, "datarep", datarep)) return e;
    if (std::strcmp(datarep, "external32") == 0) return MPI_SUCCESS;
    return c.fail(nullptr, MPI_ERR_UNSUPPORTED_DATAREP, "argument datarep = \"%s\" is not supported (only \"external32\")",
                  datarep);
}

int set_elements(const char* name, MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
    Call c(name);
    if (int e = c.not_null(nullptr, "status", status)) return e;
    const Datatype* t;
    if (int e = input_type(c, "datatype", datatype, &t)) return e;
    if (int e = c.count(nullptr, "count", count)) return e;
    const std::int64_t bytes = datatype_bytes_of_elements(*t, count);
    status_set(status, status->MPI_SOURCE, status->MPI_TAG, status->MPI_ERROR, bytes, status_cancelled(status));
    return MPI_SUCCESS;
}

}  // namespace

// ---- Constructors.

HMPI_API(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype)) {
    Call c("MPI_Type_contiguous");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "newtype", newtype)) return e;
    if (int e = nonnegative(c, "count", count, MPI_ERR_COUNT)) return e;
    const Datatype* old;
    if (int e = input_type(c, "oldtype", oldtype, &old)) return e;
    return build_and_publish(c, {{old, 0, count}}, false, TypeEnvelope{MPI_COMBINER_CONTIGUOUS, {count}, {}, {old}}, newtype);
}

HMPI_API(int, Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype)) {
    return vector_common("MPI_Type_vector", count, blocklength, stride, false, oldtype, newtype, MPI_COMBINER_VECTOR);
}
HMPI_API(int, Type_create_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype)) {
    return vector_common("MPI_Type_create_hvector", count, blocklength, stride, true, oldtype, newtype, MPI_COMBINER_HVECTOR);
}
HMPI_API(int, Type_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype)) {
    return vector_common("MPI_Type_hvector", count, blocklength, stride, true, oldtype, newtype, MPI_COMBINER_HVECTOR_INTEGER);
}

HMPI_API(int, Type_indexed, (int count, const int array_of_blocklengths[], const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)) {
    return indexed_common("MPI_Type_indexed", count, array_of_blocklengths, array_of_displacements, false, oldtype,
                          newtype, MPI_COMBINER_INDEXED);
}
HMPI_API(int, Type_create_hindexed, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)) {
    return indexed_common("MPI_Type_create_hindexed", count, array_of_blocklengths, array_of_displacements, true,
                          oldtype, newtype, MPI_COMBINER_HINDEXED);
}
HMPI_API(int, Type_hindexed, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)) {
    return indexed_common("MPI_Type_hindexed", count, array_of_blocklengths, array_of_displacements, true, oldtype,
                          newtype, MPI_COMBINER_HINDEXED_INTEGER);
}
HMPI_API(int, Type_create_indexed_block, (int count, int blocklength, const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)) {
    return indexed_block_common("MPI_Type_create_indexed_block", count, blocklength, array_of_displacements, false,
                                oldtype, newtype, MPI_COMBINER_INDEXED_BLOCK);
}
HMPI_API(int, Type_create_hindexed_block, (int count, int blocklength, const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)) {
    return indexed_block_common("MPI_Type_create_hindexed_block", count, blocklength, array_of_displacements, true,
                                oldtype, newtype, MPI_COMBINER_HINDEXED_BLOCK);
}
HMPI_API(int, Type_create_struct, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype *newtype)) {
    return struct_common("MPI_Type_create_struct", count, array_of_blocklengths, array_of_displacements, array_of_types,
                         newtype);
}
HMPI_API(int, Type_struct, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype *newtype)) {
    return struct_common("MPI_Type_struct", count, array_of_blocklengths, array_of_displacements, array_of_types, newtype);
}

HMPI_API(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)) {
    Call c("MPI_Type_create_resized");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "newtype", newtype)) return e;
    const Datatype* old;
    if (int e = input_type(c, "oldtype", oldtype, &old)) return e;
    Datatype* t = nullptr;
    int built = datatype_resized(*old, lb, extent, &t);
    return publish(c, built, t, TypeEnvelope{MPI_COMBINER_RESIZED, {}, {lb, extent}, {old}}, newtype);
}

HMPI_API(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype)) {
    Call c("MPI_Type_dup");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "newtype", newtype)) return e;
    const Datatype* old;
    if (int e = input_type(c, "oldtype", oldtype, &old)) return e;
    Datatype* t = datatype_clone(*old);
    t->combiner = MPI_COMBINER_DUP;
    t->ints.clear();
    t->addrs.clear();
    t->types = RetainedTypes{};
    t->types.push_back(old);
    // Same committed state as the original; attributes copied by their callbacks.
    // (predefined types keep their attributes per rank, outside the shared object)
    const AttributeSet& from = datatype_attributes(c.rank()->world_rank, *old);
    if (int e = from.copy_into(t->attrs, static_cast<void*>(old->handle))) {
        t->attrs.delete_all(static_cast<void*>(t->handle));
        datatype_release(t);
        return c.fail(nullptr, e, "an attribute copy callback returned %d", e);
    }
    *newtype = t->handle;
    return MPI_SUCCESS;
}

HMPI_API(int, Type_create_subarray, (int ndims, const int array_of_sizes[], const int array_of_subsizes[], const int array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype)) {
    Call c("MPI_Type_create_subarray");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "newtype", newtype)) return e;
    if (ndims <= 0) return c.fail(nullptr, MPI_ERR_ARG, "argument ndims = %d is not positive", ndims);
    if (int e = array_arg(c, "array_of_sizes", array_of_sizes, ndims)) return e;
    if (int e = array_arg(c, "array_of_subsizes", array_of_subsizes, ndims)) return e;
    if (int e = array_arg(c, "array_of_starts", array_of_starts, ndims)) return e;
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return c.fail(nullptr, MPI_ERR_ARG, "argument order = %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
    for (int d = 0; d < ndims; ++d) {
        const int n = array_of_sizes[d], sub = array_of_subsizes[d], start = array_of_starts[d];
        if (n <= 0) return c.fail(nullptr, MPI_ERR_ARG, "argument array_of_sizes[%d] = %d is not positive", d, n);
        if (sub < 0 || sub > n)
            return c.fail(nullptr, MPI_ERR_ARG, "argument array_of_subsizes[%d] = %d is not in [0, %d]", d, sub, n);
        if (start < 0 || start > n - sub)
            return c.fail(nullptr, MPI_ERR_ARG,
                          "argument array_of_starts[%d] = %d: the subarray [%d, %d) does not fit in the %d elements of dimension %d",
                          d, start, start, start + sub, n, d);
    }
    const Datatype* old;
    if (int e = input_type(c, "oldtype", oldtype, &old)) return e;
    Datatype* t = nullptr;
    int built = datatype_subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order, *old, &t);
    TypeEnvelope env{MPI_COMBINER_SUBARRAY, {ndims}, {}, {old}};
    for (const int* a : {array_of_sizes, array_of_subsizes, array_of_starts}) env.ints.insert(env.ints.end(), a, a + ndims);
    env.ints.push_back(order);
    return publish(c, built, t, std::move(env), newtype);
}

HMPI_API(int, Type_create_darray, (int size, int rank, int ndims, const int array_of_gsizes[], const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype)) {
    Call c("MPI_Type_create_darray");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "newtype", newtype)) return e;
    if (size <= 0) return c.fail(nullptr, MPI_ERR_ARG, "argument size = %d is not positive", size);
    if (rank < 0 || rank >= size) return c.fail(nullptr, MPI_ERR_ARG, "argument rank = %d is not in [0, %d)", rank, size);
    if (ndims <= 0) return c.fail(nullptr, MPI_ERR_ARG, "argument ndims = %d is not positive", ndims);
    if (int e = array_arg(c, "array_of_gsizes", array_of_gsizes, ndims)) return e;
    if (int e = array_arg(c, "array_of_distribs", array_of_distribs, ndims)) return e;
    if (int e = array_arg(c, "array_of_dargs", array_of_dargs, ndims)) return e;
    if (int e = array_arg(c, "array_of_psizes", array_of_psizes, ndims)) return e;
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return c.fail(nullptr, MPI_ERR_ARG, "argument order = %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
    std::int64_t procs = 1;
    for (int d = 0; d < ndims; ++d) {
        const int g = array_of_gsizes[d], dist = array_of_distribs[d], darg = array_of_dargs[d], p = array_of_psizes[d];
        if (g <= 0) return c.fail(nullptr, MPI_ERR_ARG, "argument array_of_gsizes[%d] = %d is not positive", d, g);
        if (p <= 0) return c.fail(nullptr, MPI_ERR_ARG, "argument array_of_psizes[%d] = %d is not positive", d, p);
        procs *= p;
        if (procs > size) break;
        if (dist != MPI_DISTRIBUTE_NONE && dist != MPI_DISTRIBUTE_BLOCK && dist != MPI_DISTRIBUTE_CYCLIC)
            return c.fail(nullptr, MPI_ERR_ARG, "argument array_of_distribs[%d] = %d is not an MPI_DISTRIBUTE_* constant", d, dist);
        if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg <= 0)
            return c.fail(nullptr, MPI_ERR_ARG, "argument array_of_dargs[%d] = %d is neither positive nor MPI_DISTRIBUTE_DFLT_DARG", d, darg);
        if (dist == MPI_DISTRIBUTE_NONE && p != 1)
            return c.fail(nullptr, MPI_ERR_ARG, "array_of_distribs[%d] is MPI_DISTRIBUTE_NONE but array_of_psizes[%d] = %d (must be 1)", d, d, p);
        if (dist == MPI_DISTRIBUTE_BLOCK && darg != MPI_DISTRIBUTE_DFLT_DARG && std::int64_t(darg) * p < g)
            return c.fail(nullptr, MPI_ERR_ARG,
                          "array_of_dargs[%d] = %d blocks on %d processes cover %lld of the %d elements of dimension %d", d,
                          darg, p, static_cast<long long>(std::int64_t(darg) * p), g, d);
    }
    if (procs != size)
        return c.fail(nullptr, MPI_ERR_ARG, "the process grid array_of_psizes has %s%lld processes, but size = %d",
                      procs > size ? "more than " : "", static_cast<long long>(procs), size);
    const Datatype* old;
    if (int e = input_type(c, "oldtype", oldtype, &old)) return e;
    Datatype* t = nullptr;
    int built = datatype_darray(size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs, array_of_psizes,
                                order, *old, &t);
    TypeEnvelope env{MPI_COMBINER_DARRAY, {size, rank, ndims}, {}, {old}};
    for (const int* a : {array_of_gsizes, array_of_distribs, array_of_dargs, array_of_psizes})
        env.ints.insert(env.ints.end(), a, a + ndims);
    env.ints.push_back(order);
    return publish(c, built, t, std::move(env), newtype);
}

// ---- Commit and free.

HMPI_API(int, Type_commit, (MPI_Datatype *datatype)) {
    Call c("MPI_Type_commit");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "datatype", datatype)) return e;
    const Datatype* t;
    if (int e = input_type(c, "datatype", *datatype, &t)) return e;
    if (!t->predefined) mutable_type(t)->committed = true;
    return MPI_SUCCESS;
}

HMPI_API(int, Type_free, (MPI_Datatype *datatype)) {
    Call c("MPI_Type_free");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "datatype", datatype)) return e;
    const Datatype* t;
    if (int e = input_type(c, "datatype", *datatype, &t)) return e;
    if (t->predefined) return c.fail(nullptr, MPI_ERR_TYPE, "argument datatype = %s is predefined and cannot be freed", t->name);
    Datatype* m = mutable_type(t);
    int err = m->attrs.delete_all(static_cast<void*>(m->handle));
    if (err != MPI_SUCCESS) return c.fail(nullptr, err, "an attribute delete callback returned %d", err);
    // The handle is invalid from now on; requests and derived types that
    // use the type keep the object alive until they are done with it.
    m->freed = true;
    *datatype = MPI_DATATYPE_NULL;
    datatype_release(m);
    return MPI_SUCCESS;
}

// ---- Size and bounds.

HMPI_API(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size)) {
    Call c("MPI_Type_size_x");
    if (int e = c.require_initialized()) return e;
    const Datatype* t;
    if (int e = input_type(c, "datatype", datatype, &t)) return e;
    if (int e = c.not_null(nullptr, "size", size)) return e;
    *size = static_cast<MPI_Count>(t->size);
    return MPI_SUCCESS;
}

HMPI_API(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)) {
    return extent_query("MPI_Type_get_extent", datatype, lb, extent, false);
}
HMPI_API(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)) {
    return extent_query("MPI_Type_get_extent_x", datatype, lb, extent, false);
}
HMPI_API(int, Type_get_true_extent, (MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)) {
    return extent_query("MPI_Type_get_true_extent", datatype, true_lb, true_extent, true);
}
HMPI_API(int, Type_get_true_extent_x, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)) {
    return extent_query("MPI_Type_get_true_extent_x", datatype, true_lb, true_extent, true);
}
HMPI_API(int, Type_extent, (MPI_Datatype datatype, MPI_Aint *extent)) {
    return bound_query("MPI_Type_extent", datatype, extent, 0);
}
HMPI_API(int, Type_lb, (MPI_Datatype datatype, MPI_Aint *displacement)) {
    return bound_query("MPI_Type_lb", datatype, displacement, 1);
}
HMPI_API(int, Type_ub, (MPI_Datatype datatype, MPI_Aint *displacement)) {
    return bound_query("MPI_Type_ub", datatype, displacement, 2);
}

// ---- Decoding.

HMPI_API(int, Type_get_envelope, (MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes, int *combiner)) {
    Call c("MPI_Type_get_envelope");
    if (int e = c.require_initialized()) return e;
    const Datatype* t;
    if (int e = input_type(c, "datatype", datatype, &t)) return e;
    if (int e = c.not_null(nullptr, "num_integers", num_integers)) return e;
    if (int e = c.not_null(nullptr, "num_addresses", num_addresses)) return e;
    if (int e = c.not_null(nullptr, "num_datatypes", num_datatypes)) return e;
    if (int e = c.not_null(nullptr, "combiner", combiner)) return e;
    *num_integers = static_cast<int>(t->ints.size());
    *num_addresses = static_cast<int>(t->addrs.size());
    *num_datatypes = static_cast<int>(t->types.size());
    *combiner = t->combiner;
    return MPI_SUCCESS;
}

HMPI_API(int, Type_get_contents, (MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])) {
    Call c("MPI_Type_get_contents");
    if (int e = c.require_initialized()) return e;
    const Datatype* t;
    if (int e = input_type(c, "datatype", datatype, &t)) return e;
    if (t->combiner == MPI_COMBINER_NAMED)
        return c.fail(nullptr, MPI_ERR_ARG, "argument datatype = %s is predefined (MPI_COMBINER_NAMED) and has no contents",
                      t->name);
    const int ni = static_cast<int>(t->ints.size()), na = static_cast<int>(t->addrs.size()),
              nd = static_cast<int>(t->types.size());
    if (max_integers < ni || max_addresses < na || max_datatypes < nd)
        return c.fail(nullptr, MPI_ERR_ARG,
                      "the arrays are too small: max_integers = %d, max_addresses = %d, max_datatypes = %d, but the "
                      "datatype has %d integers, %d addresses and %d datatypes (see MPI_Type_get_envelope)",
                      max_integers, max_addresses, max_datatypes, ni, na, nd);
    if (int e = array_arg(c, "array_of_integers", array_of_integers, ni)) return e;
    if (int e = array_arg(c, "array_of_addresses", array_of_addresses, na)) return e;
    if (int e = array_arg(c, "array_of_datatypes", array_of_datatypes, nd)) return e;
    std::copy(t->ints.begin(), t->ints.end(), array_of_integers);
    std::copy(t->addrs.begin(), t->addrs.end(), array_of_addresses);
    // Derived types come back as new handles the caller frees (MPI 3.1, 4.1.13).
    for (int i = 0; i < nd; ++i) {
        const Datatype* in = t->types[static_cast<std::size_t>(i)];
        array_of_datatypes[i] = in->predefined ? in->handle : datatype_clone(*in)->handle;
    }
    return MPI_SUCCESS;
}

// ---- Names.

HMPI_API(int, Type_set_name, (MPI_Datatype datatype, const char *type_name)) {
    Call c("MPI_Type_set_name");
    if (int e = c.require_initialized()) return e;
    const Datatype* t;
    if (int e = input_type(c, "datatype", datatype, &t)) return e;
    if (int e = c.not_null(nullptr, "type_name", type_name)) return e;
    if (t->predefined) {
        std::lock_guard<std::mutex> g(g_names_lock);
        g_predefined_names[{c.rank(), datatype}] = std::string(type_name).substr(0, MPI_MAX_OBJECT_NAME - 1);
        return MPI_SUCCESS;
    }
    mutable_type(t)->set_name(type_name);
    return MPI_SUCCESS;
}

HMPI_API(int, Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen)) {
    Call c("MPI_Type_get_name");
    if (int e = c.require_initialized()) return e;
    const Datatype* t;
    if (int e = input_type(c, "datatype", datatype, &t)) return e;
    if (int e = c.not_null(nullptr, "type_name", type_name)) return e;
    if (int e = c.not_null(nullptr, "resultlen", resultlen)) return e;
    const char* name = t->name;
    std::string renamed;
    if (t->predefined) {
        std::lock_guard<std::mutex> g(g_names_lock);
        auto it = g_predefined_names.find({c.rank(), datatype});
        if (it != g_predefined_names.end()) renamed = it->second, name = renamed.c_str();
    }
    *resultlen = std::snprintf(type_name, MPI_MAX_OBJECT_NAME, "%s", name);
    return MPI_SUCCESS;
}

HMPI_API(int, Type_match_size, (int typeclass, int size, MPI_Datatype *datatype)) {
    Call c("MPI_Type_match_size");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "datatype", datatype)) return e;
    if (typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_REAL && typeclass != MPI_TYPECLASS_COMPLEX)
        return c.fail(nullptr, MPI_ERR_ARG, "argument typeclass = %d is not an MPI_TYPECLASS_* constant", typeclass);
    MPI_Datatype t = datatype_match_size(typeclass, size);
    if (t == MPI_DATATYPE_NULL)
        return c.fail(nullptr, MPI_ERR_ARG, "no predefined %s type has size %d",
                      typeclass == MPI_TYPECLASS_INTEGER ? "integer" : typeclass == MPI_TYPECLASS_REAL ? "real" : "complex",
                      size);
    *datatype = t;
    return MPI_SUCCESS;
}

// ---- Addresses.

HMPI_API(int, Get_address, (const void *location, MPI_Aint *address)) {
    Call c("MPI_Get_address");
    if (int e = c.not_null(nullptr, "address", address)) return e;
    *address = reinterpret_cast<MPI_Aint>(location);
    return MPI_SUCCESS;
}
HMPI_API(int, Address, (void *location, MPI_Aint *address)) {
    Call c("MPI_Address");
    if (int e = c.not_null(nullptr, "address", address)) return e;
    *address = reinterpret_cast<MPI_Aint>(location);
    return MPI_SUCCESS;
}
// Address arithmetic wraps like the hardware's (unsigned), never undefined.
HMPI_API(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp)) {
    return static_cast<MPI_Aint>(static_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(disp));
}
HMPI_API(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2)) {
    return static_cast<MPI_Aint>(static_cast<std::uintptr_t>(addr1) - static_cast<std::uintptr_t>(addr2));
}

// ---- Packing (native representation: the packed bytes are the data bytes in type-map order).

HMPI_API(int, Pack, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position, MPI_Comm comm)) {
    Call c("MPI_Pack");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = c.comm(comm, &cm)) return e;
    if (int e = c.count(cm, "incount", incount)) return e;
    const Datatype* t;
    if (int e = c.type(cm, "datatype", datatype, &t)) return e;
    if (int e = c.buffer(cm, "inbuf", inbuf, incount, t)) return e;
    if (int e = c.not_null(cm, "position", position)) return e;
    const std::int64_t bytes = static_cast<std::int64_t>(incount) * static_cast<std::int64_t>(t->size);
    if (int e = check_packed_buffer(c, cm, "outbuf", outbuf, "outsize", outsize, *position, bytes)) return e;
    pack_bytes(inbuf, *t, static_cast<std::size_t>(bytes), static_cast<unsigned char*>(outbuf) + *position);
    *position += static_cast<int>(bytes);
    return MPI_SUCCESS;
}

HMPI_API(int, Unpack, (const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype, MPI_Comm comm)) {
    Call c("MPI_Unpack");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = c.comm(comm, &cm)) return e;
    if (int e = c.count(cm, "outcount", outcount)) return e;
    const Datatype* t;
    if (int e = c.type(cm, "datatype", datatype, &t)) return e;
    if (int e = c.buffer(cm, "outbuf", outbuf, outcount, t)) return e;
    if (int e = c.not_null(cm, "position", position)) return e;
    const std::int64_t bytes = static_cast<std::int64_t>(outcount) * static_cast<std::int64_t>(t->size);
    if (int e = check_packed_buffer(c, cm, "inbuf", inbuf, "insize", insize, *position, bytes)) return e;
    unpack_bytes(static_cast<const unsigned char*>(inbuf) + *position, static_cast<std::size_t>(bytes), outbuf, *t);
    *position += static_cast<int>(bytes);
    return MPI_SUCCESS;
}

HMPI_API(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)) {
    Call c("MPI_Pack_size");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = c.comm(comm, &cm)) return e;
    if (int e = c.count(cm, "incount", incount)) return e;
    const Datatype* t;
    if (int e = c.type(cm, "datatype", datatype, &t, false)) return e;
    if (int e = c.not_null(cm, "size", size)) return e;
    const __int128 bytes = __int128(incount) * t->size;
    if (bytes > INT_MAX)
        return c.fail(cm, MPI_ERR_COUNT, "incount = %d elements of %lld bytes need %lld bytes, more than an int holds",
                      incount, static_cast<long long>(t->size), static_cast<long long>(bytes));
    *size = static_cast<int>(bytes);
    return MPI_SUCCESS;
}

HMPI_API(int, Pack_external, (const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position)) {
    Call c("MPI_Pack_external");
    if (int e = c.require_initialized()) return e;
    if (int e = check_datarep(c, datarep)) return e;
    if (int e = c.count(nullptr, "incount", incount)) return e;
    const Datatype* t;
    if (int e = c.type(nullptr, "datatype", datatype, &t)) return e;
    if (int e = c.buffer(nullptr, "inbuf", inbuf, incount, t)) return e;
    if (int e = c.not_null(nullptr, "position", position)) return e;
    const __int128 bytes = __int128(incount) * t->external32_size;
    if (int e = check_packed_buffer(c, nullptr, "outbuf", outbuf, "outsize", outsize, *position, bytes)) return e;
    int err = pack_external32(inbuf, incount, *t, static_cast<unsigned char*>(outbuf) + *position);
    *position += static_cast<MPI_Aint>(bytes);
    if (err) return c.fail(nullptr, err, "a value does not fit its external32 size (MPI_LONG and MPI_UNSIGNED_LONG have 4 bytes there)");
    return MPI_SUCCESS;
}

HMPI_API(int, Unpack_external, (const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)) {
    Call c("MPI_Unpack_external");
    if (int e = c.require_initialized()) return e;
    if (int e = check_datarep(c, datarep)) return e;
    if (int e = c.count(nullptr, "outcount", outcount)) return e;
    const Datatype* t;
    if (int e = c.type(nullptr, "datatype", datatype, &t)) return e;
    if (int e = c.buffer(nullptr, "outbuf", outbuf, outcount, t)) return e;
    if (int e = c.not_null(nullptr, "position", position)) return e;
    const __int128 bytes = __int128(outcount) * t->external32_size;
    if (int e = check_packed_buffer(c, nullptr, "inbuf", inbuf, "insize", insize, *position, bytes)) return e;
    unpack_external32(static_cast<const unsigned char*>(inbuf) + *position, outcount, *t, outbuf);
    *position += static_cast<MPI_Aint>(bytes);
    return MPI_SUCCESS;
}

HMPI_API(int, Pack_external_size, (const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size)) {
    Call c("MPI_Pack_external_size");
    if (int e = c.require_initialized()) return e;
    if (int e = check_datarep(c, datarep)) return e;
    if (int e = c.count(nullptr, "incount", incount)) return e;
    const Datatype* t;
    if (int e = c.type(nullptr, "datatype", datatype, &t, false)) return e;
    if (int e = c.not_null(nullptr, "size", size)) return e;
    *size = static_cast<MPI_Aint>(incount) * static_cast<MPI_Aint>(t->external32_size);
    return MPI_SUCCESS;
}

// ---- Status element counts (generalized requests and layered libraries).

HMPI_API(int, Status_set_elements, (MPI_Status *status, MPI_Datatype datatype, int count)) {
    return set_elements("MPI_Status_set_elements", status, datatype, count);
}

HMPI_API(int, Status_set_elements_x, (MPI_Status *status, MPI_Datatype datatype, MPI_Count count)) {
    return set_elements("MPI_Status_set_elements_x", status, datatype, count);
}

HMPI_API(int, Status_set_cancelled, (MPI_Status *status, int flag)) {
    Call c("MPI_Status_set_cancelled");
    if (int e = c.not_null(nullptr, "status", status)) return e;
    status_set(status, status->MPI_SOURCE, status->MPI_TAG, status->MPI_ERROR, status_bytes(status), flag != 0);
    return MPI_SUCCESS;
}
