// Attributes: keyvals and the values cached on communicators, datatypes and
// windows (MPI 3.1, chapter 6.7).
//
// A Keyval is created by MPI_*_create_keyval (or the deprecated
// MPI_Keyval_create) and names a copy and a delete callback. Each object
// carries an AttributeSet; the object's dup runs copy callbacks into the new
// object's set, its free runs delete callbacks.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <vector>

namespace hmpi {

enum class AttrObject : std::uint8_t { comm, datatype, win };

struct Keyval;  // defined in attributes.cpp

class AttributeSet {
public:
    // MPI_Comm_dup / MPI_Type_dup: runs each attribute's copy callback with
    // `old_handle` (the handle of the object this set belongs to) and stores
    // what they return into `dst`, which must be empty. Returns MPI_SUCCESS
    // or the first callback's error code.
    int copy_into(AttributeSet& dst, void* old_handle) const;
    // MPI_Comm_free / MPI_Type_free: runs every delete callback with
    // `handle`, then empties the set. Returns MPI_SUCCESS or the first
    // callback's error code.
    int delete_all(void* handle);

    // For the API functions (set/get/delete of one attribute).
    int set(Keyval* key, void* value, void* handle);
    bool get(const Keyval* key, void** value) const;
    int remove(Keyval* key, void* handle);  // MPI_ERR_KEYVAL-style errors are the caller's to raise
    bool empty() const noexcept { return entries_.empty(); }

private:
    struct Entry {
        Keyval* key;
        void* value;
    };
    std::vector<Entry> entries_;
};

}  // namespace hmpi
