// hmpirun's signal handling, by the self-pipe trick: handlers only write the signal number to a
// pipe that the supervision loop polls, so forwarding, reaping and messages all happen in
// ordinary code, and a SIGCHLD can never be missed between checking the child and sleeping.
#pragma once

#include <signal.h>

#include <array>
#include <vector>

namespace hmpirun {

class SignalPipe {
public:
    // Handles SIGCHLD, and SIGINT, SIGTERM and SIGHUP for forwarding to the program -- except
    // those that were ignored when hmpirun started (`hmpirun ... &` in a script, nohup): like
    // any other command, hmpirun then leaves them ignored, and the program inherits that.
    // Ignores SIGPIPE, so a reader of hmpirun's stderr going away does not kill the supervisor
    // and orphan the job.
    SignalPipe();
    ~SignalPipe();  // restores the original dispositions
    SignalPipe(const SignalPipe&) = delete;
    SignalPipe& operator=(const SignalPipe&) = delete;

    int fd() const { return read_fd_; }

    // The signals that arrived since the last call, in order.
    std::vector<int> take();

    // Whether sig is one hmpirun passes on to the program.
    static bool forwarded(int sig);

    // Around fork(): while blocked, no handler can run in the child before it has restored the
    // original dispositions (it would write into hmpirun's pipe).
    void block();
    void unblock();

    // In the child, between fork and exec: the original dispositions and signal mask, so that
    // the program starts with what hmpirun itself was started with. Async-signal-safe.
    void restore_in_child() const;

private:
    struct Saved {
        int sig;
        bool changed = false;
        struct sigaction original {};
    };

    void handle(Saved& s, void (*handler)(int));

    int read_fd_ = -1;
    int write_fd_ = -1;
    std::array<Saved, 5> saved_{{{SIGCHLD}, {SIGINT}, {SIGTERM}, {SIGHUP}, {SIGPIPE}}};
    sigset_t original_mask_{};
};

}  // namespace hmpirun
