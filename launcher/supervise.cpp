#include "supervise.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "control.hpp"
#include "report.hpp"
#include "signals.hpp"

namespace hmpirun {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int exit_cannot_run = 127;
constexpr int exit_timed_out = 124;
constexpr int exit_internal_error = 1;

// The signal that asks the runtime to write every rank's state to the control pipe and end the
// process (SIGRTMIN is a run-time value in glibc, hence a function).
int timeout_signal() { return SIGRTMIN + 1; }

std::string signal_description(int sig) {
    const char* name = strsignal(sig);
    return std::to_string(sig) + " (" + (name ? name : "unknown signal") + ")";
}

struct Pipe {
    int read = -1;
    int write = -1;
};

// Both ends close-on-exec; the child makes the one it must keep inheritable itself.
Pipe make_pipe() {
    int fds[2];
    if (pipe(fds) != 0) {
        say_errno("cannot create a pipe");
        std::exit(exit_internal_error);
    }
    for (int fd : fds) fcntl(fd, F_SETFD, FD_CLOEXEC);
    return {fds[0], fds[1]};
}

// The program's environment is hmpirun's own plus the job's variables. They are set here, in
// hmpirun, rather than between fork and exec because setenv is not async-signal-safe, and POSIX
// has no execvpe to pass an environment along with a PATH lookup. hmpirun needs none of them.
void export_environment(const Job& job, int control_fd) {
    for (const auto& [name, value] : job.environment) setenv(name.c_str(), value.c_str(), 1);
    setenv("HMPI_CONTROL_FD", std::to_string(control_fd).c_str(), 1);
}

// In the child: becomes the program, or reports exec's errno on error_fd and exits 127. Only
// async-signal-safe calls from here on.
[[noreturn]] void exec_program(char* const argv[], int control_fd, int error_fd, const SignalPipe& signals) {
    signals.restore_in_child();
    fcntl(control_fd, F_SETFD, 0);  // the one descriptor the program must inherit
    execvp(argv[0], argv);
    int err = errno;
    [[maybe_unused]] ssize_t n = write(error_fd, &err, sizeof err);
    _exit(exit_cannot_run);
}

// Forks and execs the program. Returns its pid, or -1 after printing why it could not be run.
// exec's failure comes back over a close-on-exec pipe: end-of-file means exec succeeded.
pid_t start_program(const Job& job, int control_fd, SignalPipe& signals) {
    std::vector<char*> argv;  // built before fork: no allocation in the child
    for (const std::string& arg : job.command) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    Pipe exec_errors = make_pipe();

    signals.block();
    pid_t pid = fork();
    if (pid == 0) exec_program(argv.data(), control_fd, exec_errors.write, signals);
    int err = errno;  // fork's, if it failed
    signals.unblock();
    close(exec_errors.write);

    bool exec_failed = pid < 0;
    if (pid > 0) {
        ssize_t n;
        do n = read(exec_errors.read, &err, sizeof err);
        while (n < 0 && errno == EINTR);
        exec_failed = n == static_cast<ssize_t>(sizeof err);
        if (exec_failed)
            while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {}  // reap the child that failed
    }
    close(exec_errors.read);
    if (!exec_failed) return pid;
    say("cannot run '" + job.command.front() + "': " + std::strerror(err));
    return -1;
}

class Supervisor {
public:
    Supervisor(pid_t child, ControlRelay& control, SignalPipe& signals, const std::optional<Timeout>& timeout)
        : child_(child), control_(control), signals_(signals), timeout_(timeout) {
        if (timeout_) timeout_at_ = Clock::now() + timeout_->duration;
    }

    // Supervises the program until it has ended; returns hmpirun's exit status.
    int run() {
        while (!reaped()) {
            check_deadlines();
            wait_for_events();
            forward_signals();
            control_.pump();
        }
        // Whatever the program wrote before it died is in the pipe already.
        control_.pump();
        control_.flush();
        return exit_status();
    }

private:
    bool reaped() {
        pid_t r = waitpid(child_, &status_, WNOHANG);
        if (r == child_) return true;
        if (r < 0 && errno != EINTR) {
            say_errno("waitpid");
            std::exit(exit_internal_error);
        }
        return false;
    }

    // Sleeps until a signal, a control line or the next deadline.
    void wait_for_events() {
        pollfd fds[2] = {{signals_.fd(), POLLIN, 0}, {control_.fd(), POLLIN, 0}};  // poll skips fd -1
        if (poll(fds, 2, poll_timeout_ms()) < 0 && errno != EINTR) {
            say_errno("poll");
            std::exit(exit_internal_error);
        }
    }

    int poll_timeout_ms() const {
        const auto& next = timeout_at_ ? timeout_at_ : kill_at_;
        if (!next) return -1;
        auto left = std::chrono::ceil<std::chrono::milliseconds>(*next - Clock::now()).count();
        return static_cast<int>(std::clamp<decltype(left)>(left, 0, INT_MAX));
    }

    void forward_signals() {
        for (int sig : signals_.take())
            if (SignalPipe::forwarded(sig)) kill(child_, sig);  // SIGCHLD only woke us up
    }

    void check_deadlines() {
        auto now = Clock::now();
        if (timeout_at_ && now >= *timeout_at_) {
            timeout_at_.reset();
            timed_out_ = true;
            say("job timed out after " + timeout_->text + " s; rank states:");
            lines_before_timeout_ = control_.lines_relayed();
            kill(child_, timeout_signal());
            kill_at_ = now + kill_grace;
        }
        if (kill_at_ && now >= *kill_at_) {
            kill_at_.reset();
            say("job still running " + std::to_string(kill_grace.count()) + " s after the timeout; killing it");
            kill(child_, SIGKILL);
        }
    }

    int exit_status() const {
        if (timed_out_) {
            // A program that does not handle the timeout signal (not linked with HMPI, or stuck
            // before the runtime started) dies of it silently; say so rather than leave the
            // "rank states:" heading dangling.
            if (control_.lines_relayed() == lines_before_timeout_) say("no rank states were reported");
            return exit_timed_out;
        }
        if (WIFEXITED(status_)) return WEXITSTATUS(status_);
        int sig = WTERMSIG(status_);
        if (!control_.mentioned_signal(sig)) say("job terminated by signal " + signal_description(sig));
        return 128 + sig;
    }

    pid_t child_;
    ControlRelay& control_;
    SignalPipe& signals_;
    std::optional<Timeout> timeout_;
    std::optional<Clock::time_point> timeout_at_;  // when to send the timeout signal
    std::optional<Clock::time_point> kill_at_;     // when to give up on the program and SIGKILL it
    bool timed_out_ = false;
    std::size_t lines_before_timeout_ = 0;
    int status_ = 0;  // from waitpid
};

}  // namespace

int run_job(const Job& job) {
    SignalPipe signals;
    Pipe control = make_pipe();
    export_environment(job, control.write);
    pid_t child = start_program(job, control.write, signals);
    // hmpirun's copy of the write end must go, or the pipe would never reach end-of-file.
    close(control.write);
    ControlRelay relay(control.read);
    if (child < 0) return exit_cannot_run;
    return Supervisor(child, relay, signals, job.timeout).run();
}

}  // namespace hmpirun
