// Second translation unit of the C++ privatization test (see priv_cxx_main.cpp).
#include "priv_cxx.h"

static int constructions;
int next_construction() { return ++constructions; }

std::string other_global = "other";

std::vector<int>& other_items() { return Registry<int>::items; }
std::string& other_inline_name() { return inline_name; }
int& other_function_static() {
    static int value = next_construction() * 0 + 500;  // dynamic initialization
    return value;
}
