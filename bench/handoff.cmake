# bench_handoff_floor (output name handoff_floor): plain C with two pinned
# threads, no MPI: the one-way cache-line handoff and a two-thread flag
# barrier, the floor under 2-rank collectives (docs/performance-collectives.md).
find_package(Threads REQUIRED)
add_executable(bench_handoff_floor handoff_floor.c)
target_link_libraries(bench_handoff_floor PRIVATE Threads::Threads)
set_target_properties(bench_handoff_floor PROPERTIES
  OUTPUT_NAME handoff_floor
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
