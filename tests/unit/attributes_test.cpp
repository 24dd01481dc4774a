// Unit tests of the keyval table, attribute sets, user error handlers and
// the user error class table (runtime/core/attributes.cpp, errhandler.cpp),
// including their use from many threads at once (ranks are threads).
#include <doctest/doctest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "core/attributes.hpp"
#include "core/errhandler.hpp"

using namespace hmpi;

namespace {

struct Counts {
    int copies = 0, deletes = 0;
    void* last_deleted = nullptr;
    int last_keyval = 0;
    int fail_delete = MPI_SUCCESS;
};

int count_copy(MPI_Comm, int keyval, void* extra, void* in, void* out, int* flag) {
    auto* c = static_cast<Counts*>(extra);
    c->copies++;
    c->last_keyval = keyval;
    *static_cast<void**>(out) = static_cast<char*>(in) + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

int count_delete(MPI_Comm, int keyval, void* value, void* extra) {
    auto* c = static_cast<Counts*>(extra);
    c->deletes++;
    c->last_deleted = value;
    c->last_keyval = keyval;
    return c->fail_delete;
}

int make_keyval(Counts* c, std::uintptr_t copy = 2) {
    int id = 0;
    AttrCallback copy_fn = copy == 2 ? reinterpret_cast<AttrCallback>(&count_copy) : reinterpret_cast<AttrCallback>(copy);
    REQUIRE(keyval_create(AttrObject::comm, copy_fn, reinterpret_cast<AttrCallback>(&count_delete), c, false, &id) ==
            MPI_SUCCESS);
    return id;
}

void* handle() { return reinterpret_cast<void*>(MPI_COMM_WORLD); }

void ignore_error(MPI_Comm*, int*, ...) {}

}  // namespace

TEST_CASE("keyvals: ids are positive, distinct from the predefined keys, invalid once freed") {
    Counts c;
    int a = make_keyval(&c), b = make_keyval(&c);
    CHECK(a > 0);
    CHECK(a != b);
    CHECK(!is_predefined_keyval(a));
    CHECK(is_predefined_keyval(MPI_TAG_UB));
    CHECK(is_predefined_keyval(MPI_LASTUSEDCODE));
    Keyval* ka = keyval_from_id(a);
    REQUIRE(ka);
    CHECK(keyval_id(ka) == a);
    CHECK(keyval_kind(ka) == AttrObject::comm);
    CHECK(keyval_from_id(MPI_KEYVAL_INVALID) == nullptr);
    CHECK(keyval_from_id(MPI_TAG_UB) == nullptr);
    CHECK(keyval_from_id(-5) == nullptr);
    CHECK(keyval_from_id(1 << 30) == nullptr);
    keyval_free(ka);
    CHECK(keyval_from_id(a) == nullptr);
    keyval_free(keyval_from_id(b));
}

TEST_CASE("attribute sets: set, overwrite, get, remove run the delete callback") {
    Counts c;
    int id = make_keyval(&c);
    Keyval* k = keyval_from_id(id);
    char vals[4];
    AttributeSet s;
    void* v = nullptr;
    CHECK(!s.get(k, &v));
    CHECK(s.set(k, &vals[0], handle()) == MPI_SUCCESS);
    CHECK(s.get(k, &v));
    CHECK(v == &vals[0]);
    CHECK(c.deletes == 0);
    CHECK(s.set(k, &vals[1], handle()) == MPI_SUCCESS);
    CHECK(c.deletes == 1);
    CHECK(c.last_deleted == &vals[0]);
    CHECK(c.last_keyval == id);
    // A failing delete callback keeps the old value and returns its code.
    c.fail_delete = MPI_ERR_OTHER;
    CHECK(s.set(k, &vals[2], handle()) == MPI_ERR_OTHER);
    CHECK(s.remove(k, handle()) == MPI_ERR_OTHER);
    CHECK(s.get(k, &v));
    CHECK(v == &vals[1]);
    c.fail_delete = MPI_SUCCESS;
    CHECK(s.remove(k, handle()) == MPI_SUCCESS);
    CHECK(!s.get(k, &v));
    CHECK(s.empty());
    CHECK(s.remove(k, handle()) == MPI_SUCCESS);  // absent: nothing to do
    keyval_free(k);
}

TEST_CASE("attribute sets: copy_into follows the copy function; a freed keyval lives while used") {
    Counts cu, cd, cn;
    int user = make_keyval(&cu), dup = make_keyval(&cd, 1), null = make_keyval(&cn, 0);
    char vals[8];
    AttributeSet src, dst;
    REQUIRE(src.set(keyval_from_id(user), &vals[0], handle()) == MPI_SUCCESS);
    REQUIRE(src.set(keyval_from_id(dup), &vals[2], handle()) == MPI_SUCCESS);
    REQUIRE(src.set(keyval_from_id(null), &vals[4], handle()) == MPI_SUCCESS);
    Keyval* ku = keyval_from_id(user);
    // Freed while attached: the id dies, the callbacks still run.
    keyval_free(ku);
    CHECK(keyval_from_id(user) == nullptr);
    CHECK(src.copy_into(dst, handle()) == MPI_SUCCESS);
    CHECK(cu.copies == 1);
    CHECK(cu.last_keyval == user);
    void* v = nullptr;
    CHECK(dst.get(ku, &v));
    CHECK(v == &vals[1]);
    CHECK(dst.get(keyval_from_id(dup), &v));
    CHECK(v == &vals[2]);
    CHECK(!dst.get(keyval_from_id(null), &v));
    CHECK(dst.delete_all(handle()) == MPI_SUCCESS);
    CHECK(cu.deletes == 1);
    CHECK(cu.last_deleted == &vals[1]);
    CHECK(cd.deletes == 1);
    CHECK(cn.deletes == 0);
    CHECK(src.delete_all(handle()) == MPI_SUCCESS);
    CHECK(cu.deletes == 2);
    CHECK(cu.last_keyval == user);
    CHECK(cn.deletes == 1);
    keyval_free(keyval_from_id(dup));
    keyval_free(keyval_from_id(null));
}

TEST_CASE("attribute sets: a copy of an object's struct starts with no attributes") {
    Counts c;
    int id = make_keyval(&c);
    char x;
    AttributeSet a;
    REQUIRE(a.set(keyval_from_id(id), &x, handle()) == MPI_SUCCESS);
    AttributeSet b(a);
    CHECK(b.empty());
    CHECK(!a.empty());
    CHECK(a.delete_all(handle()) == MPI_SUCCESS);
    keyval_free(keyval_from_id(id));
}

TEST_CASE("keyvals and attributes from many threads at once") {
    constexpr int kThreads = 6, kRounds = 3000;
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&failures] {
            Counts c;
            AttributeSet s;
            char vals[2];
            std::vector<int> held;
            for (int i = 0; i < kRounds; ++i) {
                int id = 0;
                if (keyval_create(AttrObject::comm, nullptr, reinterpret_cast<AttrCallback>(&count_delete), &c, false,
                                  &id) != MPI_SUCCESS) {
                    failures++;
                    continue;
                }
                Keyval* k = keyval_from_id(id);
                if (!k || keyval_id(k) != id) failures++;
                if (s.set(k, &vals[i % 2], handle()) != MPI_SUCCESS) failures++;
                void* v = nullptr;
                if (!s.get(k, &v) || v != &vals[i % 2]) failures++;
                held.push_back(id);
                if (held.size() > 16) {  // free in a different order than created
                    int old = held[held.size() / 2];
                    held.erase(held.begin() + static_cast<std::ptrdiff_t>(held.size() / 2));
                    Keyval* ko = keyval_from_id(old);
                    if (!ko) {
                        failures++;
                        continue;
                    }
                    if (s.remove(ko, handle()) != MPI_SUCCESS) failures++;
                    keyval_free(ko);
                }
            }
            if (s.delete_all(handle()) != MPI_SUCCESS) failures++;
            for (int id : held) keyval_free(keyval_from_id(id));
            if (c.deletes != kRounds) failures++;
        });
    }
    for (auto& t : threads) t.join();
    CHECK(failures.load() == 0);
}

TEST_CASE("user error handlers are reference counted") {
    MPI_Errhandler h = errhandler_create_comm(&ignore_error);
    CHECK(errhandler_from_handle(h) != nullptr);
    CHECK(errhandler_valid_for_comm(h));
    CHECK(errhandler_valid_for_comm(MPI_ERRORS_RETURN));
    CHECK(!errhandler_valid_for_comm(MPI_ERRHANDLER_NULL));
    CHECK(errhandler_is_predefined(MPI_ERRORS_ABORT));
    errhandler_retain(h);   // attached to a communicator
    errhandler_release(h);  // the user's MPI_Errhandler_free
    CHECK(errhandler_from_handle(h) != nullptr);  // still attached
    CHECK(errhandler_from_handle(h)->refs.load() == 1);
    errhandler_release(h);  // detached: destroyed
    errhandler_retain(MPI_ERRORS_ARE_FATAL);  // predefined: no-ops
    errhandler_release(MPI_ERRORS_ARE_FATAL);
}

TEST_CASE("user error classes and codes from many threads") {
    constexpr int kThreads = 4, kEach = 500;
    std::vector<std::vector<std::pair<int, int>>> made(kThreads);  // (code, class)
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&made, t] {
            int cls = 0;
            REQUIRE(error_add_class(&cls) == MPI_SUCCESS);
            made[static_cast<std::size_t>(t)].emplace_back(cls, cls);
            for (int i = 0; i < kEach; ++i) {
                int code = 0;
                int of = i % 3 == 0 ? MPI_ERR_ARG : cls;
                REQUIRE(error_add_code(of, &code) == MPI_SUCCESS);
                made[static_cast<std::size_t>(t)].emplace_back(code, of);
            }
        });
    }
    for (auto& t : threads) t.join();
    std::set<int> all;
    for (auto& list : made) {
        for (auto [code, cls] : list) {
            CHECK(code > MPI_ERR_LASTCODE);
            CHECK(code <= *error_last_used_code());
            int got = -1;
            CHECK(error_class_of(code, &got));
            CHECK(got == cls);
            all.insert(code);
        }
    }
    CHECK(all.size() == static_cast<std::size_t>(kThreads * (kEach + 1)));
    int code = made[0][1].first, cls = made[0][0].first, out = 0;
    CHECK(error_add_code(code == cls ? -1 : code, &out) == MPI_ERR_ARG);  // a code is not a class
    CHECK(error_add_code(*error_last_used_code() + 5, &out) == MPI_ERR_ARG);
    std::string text = "x";
    CHECK(error_user_string(cls, &text));
    CHECK(text.empty());
    CHECK(error_add_string(cls, "hello") == MPI_SUCCESS);
    CHECK(error_user_string(cls, &text));
    CHECK(text == "hello");
    CHECK(error_add_string(MPI_ERR_ARG, "no") == MPI_ERR_ARG);
    int got = -1;
    CHECK(error_class_of(MPI_ERR_RANK, &got));
    CHECK(got == MPI_ERR_RANK);
    CHECK(!error_class_of(62, &got));
    CHECK(!error_class_of(-1, &got));
}
