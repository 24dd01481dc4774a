// The runtime's side of global-variable privatization (docs/privatization.md).
//
// A privatized program (built by hmpicc/hmpicxx with the pass) keeps its rank's base -- the
// deltas from its globals' templates to the rank's copies -- in one initial-exec thread-local
// value of the program, __hmpi_priv_tls, installed on the rank's thread by the program's own
// privatization runtime (privatize/runtime/hmpi_priv_rt.c) when the rank enters main. Every
// other thread acting for the rank needs the same base: threads the rank starts get it here
// (runtime/core/threads.cpp), and a fiber switch will set it the same way. The program exports
// __hmpi_priv_get_base / __hmpi_priv_set_base for this; a program that is not privatized has
// neither, and then these functions do nothing.
#pragma once

namespace hmpi {

struct PrivatizationBase {
    long words[4] = {0, 0, 0, 0};
    bool present = false;  // the program is privatized
};

// The calling thread's base (present == false for a program that is not privatized).
PrivatizationBase privatization_capture() noexcept;
// Makes `base` the calling thread's (no effect unless present).
void privatization_install(const PrivatizationBase& base) noexcept;

}  // namespace hmpi
