// Passing a privatized program's per-rank base between threads (see privatize.hpp). The
// program's accessors are found once with dlsym: libhmpi cannot name them at link time, since
// programs that are not privatized do not have them.
#include "core/privatize.hpp"

#include <dlfcn.h>

namespace hmpi {

namespace {

using GetBase = void (*)(long*);
using SetBase = void (*)(const long*);

struct Accessors {
    GetBase get = nullptr;
    SetBase set = nullptr;
};

const Accessors& accessors() noexcept {
    static const Accessors a = [] {
        Accessors r;
        r.get = reinterpret_cast<GetBase>(dlsym(RTLD_DEFAULT, "__hmpi_priv_get_base"));
        r.set = reinterpret_cast<SetBase>(dlsym(RTLD_DEFAULT, "__hmpi_priv_set_base"));
        if (!r.get || !r.set) r = Accessors{};
        return r;
    }();
    return a;
}

}  // namespace

PrivatizationBase privatization_capture() noexcept {
    PrivatizationBase base;
    const Accessors& a = accessors();
    if (a.get) {
        a.get(base.words);
        base.present = true;
    }
    return base;
}

void privatization_install(const PrivatizationBase& base) noexcept {
    if (!base.present) return;
    const Accessors& a = accessors();
    if (a.set) a.set(base.words);
}

}  // namespace hmpi
