// hmpi-info: prints what the runtime would do.
//
//   hmpi-info --algorithms             every collective and its algorithms, in order of preference
//   hmpi-info --algorithms COLLECTIVE  the algorithm names of one collective, one per line
//                                      (what tests/coll/run-per-algorithm.sh iterates over)
#include <cstdio>
#include <cstring>

#include "collectives/framework/kinds.hpp"
#include "collectives/framework/registry.hpp"

namespace {

int usage() {
    std::fprintf(stderr,
                 "usage: hmpi-info --algorithms [COLLECTIVE]\n"
                 "  --algorithms             list every collective's algorithms, in order of preference\n"
                 "  --algorithms COLLECTIVE  list one collective's algorithm names, one per line\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace hmpi::coll;
    if (argc < 2 || std::strcmp(argv[1], "--algorithms") != 0 || argc > 3) return usage();
    if (argc == 3) {
        CollKind k;
        if (!coll_kind_from_name(argv[2], &k)) {
            std::fprintf(stderr, "hmpi-info: no collective named '%s'\n", argv[2]);
            return 2;
        }
        for (const CollAlgorithm& a : algorithms_of(k)) std::printf("%s\n", a.name);
        return 0;
    }
    for (int i = 0; i < kCollKinds; ++i) {
        const auto k = static_cast<CollKind>(i);
        std::printf("%s (HMPI_", coll_name(k));
        for (const char* c = coll_name(k); *c; ++c) std::putchar(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
        std::printf("_ALGORITHM):\n");
        for (const CollAlgorithm& a : algorithms_of(k)) std::printf("  %-22s %s\n", a.name, a.description);
    }
    return 0;
}
