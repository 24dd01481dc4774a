/*
 * The startup stub, linked statically into every program built with hmpicc.
 *
 * hmpicc links with -Wl,--wrap=main: the C runtime's call to main() then
 * lands in __wrap_main below, and __real_main names the program's own main.
 * The runtime runs __real_main once per rank, each on its own thread.
 * (The wrap must be resolved at static link time, which is why this stub is
 * a static archive and not part of libhmpi.so.)
 */
int __real_main(int argc, char **argv, char **envp);
int hmpi_start(int argc, char **argv, char **envp, int (*user_main)(int, char **, char **));

int __wrap_main(int argc, char **argv, char **envp) {
    return hmpi_start(argc, argv, envp, __real_main);
}
