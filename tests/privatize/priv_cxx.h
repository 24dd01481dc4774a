// Shared declarations of the C++ privatization test (priv_cxx_main.cpp, priv_cxx_other.cpp).
#pragma once
#include <string>
#include <vector>

int next_construction();  // counts dynamic initializations in this rank (priv_cxx_other.cpp)

// A template static member with dynamic initialization, instantiated in both translation units.
template <typename T>
struct Registry {
    static std::vector<T> items;
};
template <typename T>
std::vector<T> Registry<T>::items{T(next_construction())};

// An inline variable with dynamic initialization, used in both translation units.
inline std::string inline_name = "inline-" + std::to_string(next_construction());
inline int inline_plain = 21;

std::vector<int>& other_items();      // Registry<int>::items, as the other TU sees it
std::string& other_inline_name();     // inline_name, as the other TU sees it
int& other_function_static();         // a function-local static with dynamic init there
extern std::string other_global;      // "other", a global with a constructor there
