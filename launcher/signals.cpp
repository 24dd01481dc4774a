#include "signals.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "report.hpp"

namespace hmpirun {

namespace {

int g_wake_fd = -1;  // the write end of the pipe, for the handler (handlers get no context)

extern "C" void on_signal(int sig) {
    int saved_errno = errno;
    unsigned char byte = static_cast<unsigned char>(sig);  // Linux signal numbers are below 65
    // If the pipe is full, thousands of signals are already waiting to be looked at; losing
    // one more changes nothing.
    [[maybe_unused]] ssize_t n = write(g_wake_fd, &byte, 1);
    errno = saved_errno;
}

void set_flags(int fd, int fd_flags, int status_flags) {
    fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | fd_flags);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | status_flags);
}

}  // namespace

SignalPipe::SignalPipe() {
    int fds[2];
    if (pipe(fds) != 0) {
        say_errno("cannot create a pipe");
        std::exit(1);
    }
    read_fd_ = fds[0];
    write_fd_ = fds[1];
    // Close-on-exec: the program must not inherit them. Non-blocking: the handler must never
    // block, and take() reads until the pipe is empty.
    set_flags(read_fd_, FD_CLOEXEC, O_NONBLOCK);
    set_flags(write_fd_, FD_CLOEXEC, O_NONBLOCK);
    g_wake_fd = write_fd_;

    for (Saved& s : saved_) {
        if (s.sig == SIGPIPE) {
            handle(s, SIG_IGN);
            continue;
        }
        struct sigaction current {};
        sigaction(s.sig, nullptr, &current);
        if (s.sig == SIGCHLD || current.sa_handler != SIG_IGN) handle(s, on_signal);
    }
    sigprocmask(SIG_SETMASK, nullptr, &original_mask_);
}

void SignalPipe::handle(Saved& s, void (*handler)(int)) {
    struct sigaction sa {};
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    // SA_RESTART spares the blocking calls outside the poll loop from EINTR; SA_NOCLDSTOP
    // because only the program's termination matters, not its being stopped (Ctrl-Z).
    sa.sa_flags = SA_RESTART | (s.sig == SIGCHLD ? SA_NOCLDSTOP : 0);
    s.changed = sigaction(s.sig, &sa, &s.original) == 0;
}

SignalPipe::~SignalPipe() {
    for (Saved& s : saved_)
        if (s.changed) sigaction(s.sig, &s.original, nullptr);
    g_wake_fd = -1;
    close(read_fd_);
    close(write_fd_);
}

std::vector<int> SignalPipe::take() {
    std::vector<int> signals;
    unsigned char buf[64];
    for (;;) {
        ssize_t n = read(read_fd_, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        signals.insert(signals.end(), buf, buf + n);
    }
    return signals;
}

bool SignalPipe::forwarded(int sig) { return sig == SIGINT || sig == SIGTERM || sig == SIGHUP; }

void SignalPipe::block() {
    sigset_t set;
    sigemptyset(&set);
    for (const Saved& s : saved_) sigaddset(&set, s.sig);
    sigprocmask(SIG_BLOCK, &set, &original_mask_);
}

void SignalPipe::unblock() { sigprocmask(SIG_SETMASK, &original_mask_, nullptr); }

void SignalPipe::restore_in_child() const {
    for (const Saved& s : saved_)
        if (s.changed) sigaction(s.sig, &s.original, nullptr);
    sigprocmask(SIG_SETMASK, &original_mask_, nullptr);
}

}  // namespace hmpirun
