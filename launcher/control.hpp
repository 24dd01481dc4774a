// The read end of the control pipe: rank events that the runtime inside the program writes to
// HMPI_CONTROL_FD, one text line each, relayed to the user as "hmpirun: <line>".
#pragma once

#include <bitset>
#include <cstddef>
#include <string>
#include <string_view>

namespace hmpirun {

class ControlRelay {
public:
    // Takes ownership of fd and makes it non-blocking: hmpirun reads whatever has arrived and goes
    // back to waiting, and after the program has died it must drain the pipe without waiting for
    // an end-of-file that a surviving grandchild holding the write end could postpone forever.
    explicit ControlRelay(int fd);
    ~ControlRelay();
    ControlRelay(const ControlRelay&) = delete;
    ControlRelay& operator=(const ControlRelay&) = delete;

    // The descriptor to poll for input; -1 once the pipe has reached end-of-file.
    int fd() const { return fd_; }

    // Reads everything available now and relays each complete line.
    void pump();

    // Relays what is left of an unterminated last line (the program died mid-write).
    void flush();

    // Whether a relayed line said "signal <sig>", e.g. "rank 3 terminated by signal 11 (...)":
    // then hmpirun need not explain a death by that signal again.
    bool mentioned_signal(int sig) const;

    std::size_t lines_relayed() const { return lines_; }

private:
    void relay_complete_lines();
    void relay(std::string_view line);
    void close_fd();

    int fd_;
    std::string pending_;  // bytes after the last newline seen
    std::size_t lines_ = 0;
    std::bitset<128> signals_mentioned_;  // signal numbers stay below 65 on Linux; 128 leaves room
};

}  // namespace hmpirun
