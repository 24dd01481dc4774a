// Small functions of MPI 3.1 with no better home: MPI_Alloc_mem /
// MPI_Free_mem (8.2), MPI_Pcontrol (14.2.4), MPI_Message_c2f / f2c (17.2.4).
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "api/api.hpp"
#include "core/info.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace {

// Alignment of MPI_Alloc_mem memory: a cache line, so buffers never share
// one with other data (ranks are threads of one process).
constexpr std::size_t kAllocAlignment = 64;

// Fortran integers for message handles. The predefined handles convert to
// their ABI values; a real message gets the next integer from kFirstMessage
// on, through one process-wide table (messages are rank-local, but any rank
// may convert: the table is shared and locked). Entries are never removed:
// a handle converted once keeps its integer.
constexpr MPI_Fint kFirstMessage = 0x1000;

struct MessageTable {
    std::mutex mutex;
    std::vector<MPI_Message> by_index;
    std::unordered_map<MPI_Message, MPI_Fint> by_handle;
};

MessageTable& messages() {
    static MessageTable t;
    return t;
}

}  // namespace

HMPI_API(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr)) {
    Call c("MPI_Alloc_mem");
    if (int e = c.require_initialized()) return e;
    if (size < 0) return c.fail(nullptr, MPI_ERR_ARG, "argument size = %lld is negative", static_cast<long long>(size));
    if (info != MPI_INFO_NULL && !info_from_handle(info))
        return c.fail(nullptr, MPI_ERR_INFO, "argument info = %p is not a valid info object", static_cast<void*>(info));
    if (int e = c.not_null(nullptr, "baseptr", baseptr)) return e;
    // aligned_alloc needs a multiple of the alignment; size 0 still gets a
    // unique pointer that MPI_Free_mem accepts.
    auto bytes = static_cast<std::size_t>(size);
    std::size_t rounded = bytes == 0 ? kAllocAlignment : (bytes + kAllocAlignment - 1) / kAllocAlignment * kAllocAlignment;
    void* p = rounded >= bytes ? std::aligned_alloc(kAllocAlignment, rounded) : nullptr;
    if (!p)
        return c.fail(nullptr, MPI_ERR_NO_MEM, "cannot allocate argument size = %lld bytes", static_cast<long long>(size));
    *static_cast<void**>(baseptr) = p;
    return MPI_SUCCESS;
}

HMPI_API(int, Free_mem, (void *base)) {
    Call c("MPI_Free_mem");
    if (int e = c.require_initialized()) return e;
    std::free(base);  // NULL is accepted and does nothing
    return MPI_SUCCESS;
}

// Profiling control: HMPI has no profiling levels of its own; a profiling
// library that defines MPI_Pcontrol replaces this one.
HMPI_API(int, Pcontrol, (const int level, ...)) {
    (void)level;
    return MPI_SUCCESS;
}

HMPI_API(MPI_Fint, Message_c2f, (MPI_Message message)) {
    if (message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC)
        return static_cast<MPI_Fint>(reinterpret_cast<std::uintptr_t>(message));
    MessageTable& t = messages();
    std::lock_guard<std::mutex> hold(t.mutex);
    auto [it, added] = t.by_handle.try_emplace(message, kFirstMessage + static_cast<MPI_Fint>(t.by_index.size()));
    if (added) t.by_index.push_back(message);
    return it->second;
}

HMPI_API(MPI_Message, Message_f2c, (MPI_Fint message)) {
    auto predefined = [](MPI_Message m) { return static_cast<MPI_Fint>(reinterpret_cast<std::uintptr_t>(m)); };
    if (message == predefined(MPI_MESSAGE_NULL)) return MPI_MESSAGE_NULL;
    if (message == predefined(MPI_MESSAGE_NO_PROC)) return MPI_MESSAGE_NO_PROC;
    MessageTable& t = messages();
    std::lock_guard<std::mutex> hold(t.mutex);
    auto index = static_cast<std::size_t>(message) - static_cast<std::size_t>(kFirstMessage);
    if (message < kFirstMessage || index >= t.by_index.size()) return MPI_MESSAGE_NULL;  // not from MPI_Message_c2f
    return t.by_index[index];
}
