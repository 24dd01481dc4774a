#include "report.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace hmpirun {

void say(std::string_view text) {
    std::string line = "hmpirun: ";
    line += text;
    line += '\n';
    const char* p = line.data();
    std::size_t left = line.size();
    while (left > 0) {
        ssize_t n = write(STDERR_FILENO, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // stderr is gone (closed pipe, full disk): nothing useful left to do
        p += n;
        left -= static_cast<std::size_t>(n);
    }
}

void say_errno(std::string_view what) {
    int err = errno;
    std::string text(what);
    text += ": ";
    text += std::strerror(err);
    say(text);
}

}  // namespace hmpirun
