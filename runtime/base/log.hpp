// Reporting rank events and fatal errors.
//
// Events about a rank (exit status, abort, crash, timeout dump) go to hmpirun
// over HMPI_CONTROL_FD, one line each; hmpirun prints them as "hmpirun: LINE".
// Without hmpirun they go to stderr prefixed "hmpi: ".
#pragma once
#include <cstddef>

namespace hmpi {

// Where event lines go; set once at job start (before rank threads exist).
void set_event_fd(int fd);

// Writes one event line (a newline is appended). Thread-safe.
void report_event(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Async-signal-safe: writes the bytes of one already formatted line.
void report_event_raw(const char* line, std::size_t len) noexcept;

// A configuration or internal error that leaves nothing sensible to do:
// prints "hmpi: fatal: ..." to stderr and ends the process with status 1.
[[noreturn]] void die(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Small async-signal-safe formatting helpers for signal handlers.
struct SignalSafeLine {
    char buf[256];
    std::size_t len = 0;
    SignalSafeLine& str(const char* s) noexcept;
    SignalSafeLine& num(long long v) noexcept;
};

}  // namespace hmpi
