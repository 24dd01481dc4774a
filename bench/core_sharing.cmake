# bench_core_sharing (output name core_sharing): plain C with two pinned
# threads, no MPI: whether two CPUs share one core's ports and L2 (the
# 2-core guest's fast state; docs/performance-collectives.md, stop 46).
find_package(Threads REQUIRED)
add_executable(bench_core_sharing core_sharing.c)
target_link_libraries(bench_core_sharing PRIVATE Threads::Threads)
set_target_properties(bench_core_sharing PROPERTIES
  OUTPUT_NAME core_sharing
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
