#include "control.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>

#include "report.hpp"

namespace hmpirun {

namespace {

// A runaway writer without newlines must not grow hmpirun's memory without bound: past this
// length the pending text is relayed as a line of its own.
constexpr std::size_t max_line = 64 * 1024;

}  // namespace

ControlRelay::ControlRelay(int fd) : fd_(fd) {
    int flags = fcntl(fd_, F_GETFL);
    if (flags >= 0) fcntl(fd_, F_SETFL, flags | O_NONBLOCK);
}

ControlRelay::~ControlRelay() { close_fd(); }

void ControlRelay::close_fd() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
}

void ControlRelay::pump() {
    char buf[4096];
    while (fd_ >= 0) {
        ssize_t n = read(fd_, buf, sizeof buf);
        if (n > 0) {
            pending_.append(buf, static_cast<std::size_t>(n));
            relay_complete_lines();
        } else if (n == 0) {
            close_fd();  // every writer is gone; poll() would keep reporting POLLHUP otherwise
        } else if (errno == EINTR) {
            continue;
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            return;
        } else {
            say_errno("reading the control pipe");
            close_fd();
        }
    }
}

void ControlRelay::relay_complete_lines() {
    std::size_t start = 0;
    for (std::size_t nl; (nl = pending_.find('\n', start)) != std::string::npos; start = nl + 1)
        relay(std::string_view(pending_).substr(start, nl - start));
    pending_.erase(0, start);
    if (pending_.size() >= max_line) flush();
}

void ControlRelay::flush() {
    relay(pending_);
    pending_.clear();
}

void ControlRelay::relay(std::string_view line) {
    if (line.empty()) return;
    say(line);
    ++lines_;
    // Note every "signal <number>" in the line.
    constexpr std::string_view key = "signal ";
    for (auto pos = line.find(key); pos != std::string_view::npos; pos = line.find(key, pos + 1)) {
        const char* first = line.data() + pos + key.size();
        int sig = 0;
        auto [end, ec] = std::from_chars(first, line.data() + line.size(), sig);
        if (ec == std::errc{} && end != first && sig > 0 && static_cast<std::size_t>(sig) < signals_mentioned_.size())
            signals_mentioned_.set(static_cast<std::size_t>(sig));
    }
}

bool ControlRelay::mentioned_signal(int sig) const {
    return sig > 0 && static_cast<std::size_t>(sig) < signals_mentioned_.size() &&
           signals_mentioned_.test(static_cast<std::size_t>(sig));
}

}  // namespace hmpirun
