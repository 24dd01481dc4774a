#include "base/log.hpp"

#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace hmpi {

namespace {
int g_event_fd = -1;

void write_all(int fd, const char* p, std::size_t n) noexcept {
    while (n > 0) {
        ssize_t w = ::write(fd, p, n);
        if (w < 0) return;  // nothing sensible left to do
        p += w;
        n -= static_cast<std::size_t>(w);
    }
}
}  // namespace

void set_event_fd(int fd) { g_event_fd = fd; }

void report_event_raw(const char* line, std::size_t len) noexcept {
    // One write(2) per line: lines from different ranks never interleave
    // (pipe writes up to PIPE_BUF are atomic).
    char buf[1024];
    std::size_t off = 0;
    if (g_event_fd < 0) {
        std::memcpy(buf, "hmpi: ", 6);
        off = 6;
    }
    if (len > sizeof buf - off - 1) len = sizeof buf - off - 1;
    std::memcpy(buf + off, line, len);
    off += len;
    buf[off++] = '\n';
    write_all(g_event_fd >= 0 ? g_event_fd : STDERR_FILENO, buf, off);
}

void report_event(const char* fmt, ...) {
    char line[900];
    va_list ap;
    va_start(ap, fmt);
    int n = std::vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    report_event_raw(line, static_cast<std::size_t>(n) < sizeof line ? static_cast<std::size_t>(n) : sizeof line - 1);
}

void die(const char* fmt, ...) {
    char line[900];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    std::fprintf(stderr, "hmpi: fatal: %s\n", line);
    std::fflush(stderr);
    std::_Exit(1);
}

SignalSafeLine& SignalSafeLine::str(const char* s) noexcept {
    while (s && *s && len < sizeof buf - 1) buf[len++] = *s++;
    return *this;
}

SignalSafeLine& SignalSafeLine::num(long long v) noexcept {
    char tmp[24];
    int n = 0;
    bool neg = v < 0;
    unsigned long long u = neg ? 0ULL - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
    do {
        tmp[n++] = static_cast<char>('0' + u % 10);
        u /= 10;
    } while (u && n < 22);
    if (neg) tmp[n++] = '-';
    while (n > 0 && len < sizeof buf - 1) buf[len++] = tmp[--n];
    return *this;
}

}  // namespace hmpi
