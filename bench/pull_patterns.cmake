# bench_pull_patterns (output name pull_patterns): plain C, t pinned
# threads, no MPI: a pulled line's cost in the ring, all-to-all and
# all-gather patterns, and a read line's rewrite (docs/performance-
# collectives.md, stop 47).
find_package(Threads REQUIRED)
add_executable(bench_pull_patterns pull_patterns.c)
target_link_libraries(bench_pull_patterns PRIVATE Threads::Threads)
set_target_properties(bench_pull_patterns PROPERTIES
  OUTPUT_NAME pull_patterns
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
