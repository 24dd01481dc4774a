/*
 * fake_child: stands in for an HMPI program in the launcher's tests, so hmpirun can be tested
 * without libhmpi. It plays the runtime's side of the control protocol (docs/launcher.md) as
 * scripted by its arguments, a list of actions done in order:
 *
 *   line TEXT       write "TEXT\n" to HMPI_CONTROL_FD
 *   partial TEXT    write "TEXT" (no newline) to HMPI_CONTROL_FD
 *   exit N          exit with status N
 *   raise SIG       raise signal number SIG (with its default action)
 *   hang            on SIGRTMIN+1 write "rank R: blocked in MPI_Recv" for every rank R below
 *                   HMPI_NP, then SIGKILL itself, as the runtime does; sleep until then
 *   hang-deaf       ignore SIGRTMIN+1 and sleep forever (hmpirun must SIGKILL it)
 *   catch           from now on, on SIGINT/SIGTERM/SIGHUP write "rank 0 caught signal N" and
 *                   exit 42 (proves hmpirun forwarded the signal rather than just died of it)
 *   ready FILE      create FILE (tells the test script that the previous actions are done)
 *   sleep S         sleep S seconds
 *   env VAR         print "VAR=value" or "VAR is unset" to stdout
 *   fds             print the open descriptors above 2 to stdout
 *   echo ARGS...    print "argc=N" and every remaining argument in brackets; ends the list
 *
 * After the last action it exits 0. Deliberately not linked with libhmpi.
 */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int control_fd = -1;
static int nranks = 1;

static void write_all(int fd, const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

static void control_write(const char *text, int newline) {
    if (control_fd < 0) {
        fprintf(stderr, "fake_child: HMPI_CONTROL_FD is not set\n");
        exit(98);
    }
    char buf[4096];
    int n = snprintf(buf, sizeof buf, "%s%s", text, newline ? "\n" : "");
    if (n > 0) write_all(control_fd, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void on_timeout_signal(int sig) {
    (void)sig;
    for (int r = 0; r < nranks; ++r) {
        char line[64];
        int n = snprintf(line, sizeof line, "rank %d: blocked in MPI_Recv\n", r);
        write_all(control_fd, line, (size_t)n);
    }
    raise(SIGKILL);
}

static void on_forwarded_signal(int sig) {
    char line[64];
    int n = snprintf(line, sizeof line, "rank 0 caught signal %d\n", sig);
    write_all(control_fd, line, (size_t)n);
    _exit(42);
}

static void install(int sig, void (*handler)(int)) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

static void sleep_seconds(double s) {
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static void sleep_forever(void) {
    for (;;) pause();
}

static const char *need(int argc, char **argv, int i) {
    if (i >= argc) {
        fprintf(stderr, "fake_child: %s needs an argument\n", argv[i - 1]);
        exit(99);
    }
    return argv[i];
}

int main(int argc, char **argv) {
    const char *fd = getenv("HMPI_CONTROL_FD");
    if (fd) control_fd = atoi(fd);
    const char *np = getenv("HMPI_NP");
    if (np) nranks = atoi(np);

    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "line")) {
            control_write(need(argc, argv, ++i), 1);
        } else if (!strcmp(a, "partial")) {
            control_write(need(argc, argv, ++i), 0);
        } else if (!strcmp(a, "exit")) {
            exit(atoi(need(argc, argv, ++i)));
        } else if (!strcmp(a, "raise")) {
            int sig = atoi(need(argc, argv, ++i));
            install(sig, SIG_DFL);
            raise(sig);
        } else if (!strcmp(a, "hang")) {
            install(SIGRTMIN + 1, on_timeout_signal);
            sleep_forever();
        } else if (!strcmp(a, "hang-deaf")) {
            install(SIGRTMIN + 1, SIG_IGN);
            sleep_forever();
        } else if (!strcmp(a, "catch")) {
            install(SIGINT, on_forwarded_signal);
            install(SIGTERM, on_forwarded_signal);
            install(SIGHUP, on_forwarded_signal);
        } else if (!strcmp(a, "ready")) {
            int f = open(need(argc, argv, ++i), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (f >= 0) close(f);
        } else if (!strcmp(a, "sleep")) {
            sleep_seconds(atof(need(argc, argv, ++i)));
        } else if (!strcmp(a, "env")) {
            const char *name = need(argc, argv, ++i);
            const char *value = getenv(name);
            if (value) printf("%s=%s\n", name, value);
            else printf("%s is unset\n", name);
        } else if (!strcmp(a, "fds")) {
            for (int f = 3; f < 1024; ++f)
                if (fcntl(f, F_GETFD) >= 0) printf("%d ", f);
            printf("\n");
        } else if (!strcmp(a, "echo")) {
            printf("argc=%d", argc - i - 1);
            for (++i; i < argc; ++i) printf(" [%s]", argv[i]);
            printf("\n");
        } else {
            fprintf(stderr, "fake_child: unknown action '%s'\n", a);
            return 99;
        }
        fflush(stdout);
    }
    return 0;
}
