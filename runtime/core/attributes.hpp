// Attributes: keyvals and the values cached on communicators, datatypes and
// windows (MPI 3.1, chapter 6.7).
//
// A Keyval is created by MPI_*_create_keyval (or the deprecated
// MPI_Keyval_create) and names a copy and a delete callback. Each object
// carries an AttributeSet; the object's dup runs copy callbacks into the new
// object's set, its free runs delete callbacks.
//
// Keyvals are process-wide (every rank can use every keyval id, as every
// thread of a process can): their table is synchronized, and looking an id
// up takes no lock. A keyval freed while attributes still use it lives on,
// reference-counted, until the last such attribute is deleted; its id is
// invalid from the moment it is freed.
//
// An AttributeSet belongs to one object as one rank sees it and is used by
// that rank only (threads of one rank must not change the same object's
// attributes at the same time). No lock is held while a user callback runs,
// so callbacks may call MPI, including attribute functions.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <vector>

namespace hmpi {

enum class AttrObject : std::uint8_t { comm, datatype, win };

struct Keyval;  // defined in attributes.cpp
struct Datatype;  // core/datatype.hpp

class AttributeSet {
public:
    AttributeSet() noexcept = default;
    // Copying an object's struct never copies its attributes (that is
    // copy_into's job, with the callbacks): a copy starts empty.
    AttributeSet(const AttributeSet&) noexcept {}
    AttributeSet& operator=(const AttributeSet&) noexcept { return *this; }
    // An object destroyed without delete_all (an internal object, or the end
    // of the job) still gives back its keyval references; no callbacks run.
    ~AttributeSet();

    // MPI_Comm_dup / MPI_Type_dup: runs each attribute's copy callback with
    // `old_handle` (the handle of the object this set belongs to) and stores
    // what they return into `dst`, which must be empty. Returns MPI_SUCCESS
    // or the first callback's error code. On an error, `dst` keeps the
    // attributes copied before it: the caller destroys the new object as
    // usual (delete_all with the new object's handle, which runs their
    // delete callbacks).
    int copy_into(AttributeSet& dst, void* old_handle) const;
    // MPI_Comm_free / MPI_Type_free: runs every delete callback with
    // `handle` (last set first), then empties the set. Returns MPI_SUCCESS or
    // the first callback's error code (the set is emptied either way).
    int delete_all(void* handle);

    // For the API functions (set/get/delete of one attribute).
    // Replacing a value runs the delete callback on the old one first; if
    // that fails, the old value stays and its error code is returned.
    int set(Keyval* key, void* value, void* handle);
    bool get(const Keyval* key, void** value) const;
    // Runs the delete callback and removes the attribute; MPI_SUCCESS when
    // the key is not set (as MPICH does). If the callback fails the
    // attribute stays and its error code is returned.
    int remove(Keyval* key, void* handle);  // MPI_ERR_KEYVAL-style errors are the caller's to raise
    bool empty() const noexcept { return entries_.empty(); }

private:
    struct Entry {
        Keyval* key;
        void* value;
    };
    std::vector<Entry> entries_;
};

// ---- Keyvals (for api/attributes.cpp).

// A callback of any of the MPI_*_copy_attr_function / _delete_attr_function
// types (the value 0 or 1 for the predefined MPI_*_NULL_COPY_FN,
// MPI_*_DUP_FN and MPI_*_NULL_DELETE_FN); attributes.cpp calls it through
// the type that matches the keyval's object kind.
using AttrCallback = void (*)();

// Creates a keyval for objects of `kind`. Returns MPI_SUCCESS and its id in
// *id (a positive int that is never one of the predefined keys), or
// MPI_ERR_OTHER when the table is full.
int keyval_create(AttrObject kind, AttrCallback copy_fn, AttrCallback delete_fn, void* extra_state, bool deprecated,
                  int* id);
// The live keyval with this id, or nullptr (freed, never created, predefined).
Keyval* keyval_from_id(int id) noexcept;
AttrObject keyval_kind(const Keyval* k) noexcept;
int keyval_id(const Keyval* k) noexcept;
// Whether it came from MPI_Keyval_create (the deprecated form).
bool keyval_is_deprecated(const Keyval* k) noexcept;
// MPI_*_free_keyval: the id becomes invalid now; the object lives on while
// attributes use it.
void keyval_free(Keyval* k) noexcept;

// The predefined attributes of MPI_COMM_WORLD (MPI_TAG_UB ... MPI_LASTUSEDCODE):
// true for those keys.
bool is_predefined_keyval(int id) noexcept;
// A pointer to the value of a predefined attribute as rank `world_rank`
// sees it (what MPI_Comm_get_attr stores into its void* argument), or
// nullptr for other keys. MPI_LASTUSEDCODE's value is the rank's own copy,
// refreshed by this call, so the program reads it while other ranks add
// error classes without a data race.
int* predefined_attribute_value(int id, int world_rank) noexcept;

// The attribute set of a datatype as the calling rank sees it: a derived
// type's own set; for a predefined type (one object shared by all ranks),
// this rank's private set for it. Type_dup/Type_free of derived types can
// use t.attrs directly.
AttributeSet& datatype_attributes(int world_rank, const Datatype& t);

}  // namespace hmpi
