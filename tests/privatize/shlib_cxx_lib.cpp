// Privatization test, C++ shared library half (see shlib_cxx_main.cpp): a library built with
// `hmpicxx -shared -fPIC` whose global object has a constructor and a destructor, with a
// function-local static of dynamic initialization and an inline variable. Each must be per
// rank: the constructor runs once per rank, the static is initialized once per rank. Plain C++,
// no MPI: built with mpicxx.openmpi it is an ordinary library of an ordinary process.
#include <string>

namespace {
int constructed;
struct Tracked {
    int value;
    Tracked() : value(5) { ++constructed; }
    ~Tracked() { value = -1; }
};
}  // namespace

Tracked tracked;
inline int inline_counter = 7;

static std::string& name() {
    static std::string s = std::string("in") + "it";  // dynamic initialization, once per rank
    return s;
}

int shlib_cxx_constructed() { return constructed; }
int shlib_cxx_value() { return tracked.value; }
int shlib_cxx_inline() { return inline_counter; }
std::string shlib_cxx_name() { return name(); }
void shlib_cxx_set(int key) {
    tracked.value = key;
    inline_counter = key * 3;
    name() = "rank-" + std::to_string(key);
}
