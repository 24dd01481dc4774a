# bench_coll (output name coll_bench): the collective benchmark
# (bench/coll/coll_bench.c), built against HMPI so that ctest runs its
# validation mode and a timing smoke run (tests/CMakeLists.txt).
# bench/coll/run.sh does not use this target: it compiles the same source
# with hmpicc, mpicc.openmpi and mpicc.mpich so that all three get the same
# flags.
if(TARGET hmpi::mpi)
  add_executable(bench_coll coll/coll_bench.c)
  target_link_libraries(bench_coll PRIVATE hmpi::mpi)
  set_target_properties(bench_coll PROPERTIES
    OUTPUT_NAME coll_bench
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
  # bench_coll_loop (output name loop_bench): back-to-back small
  # collectives (bench/coll/loop_bench.c), with a smoke run in ctest.
  add_executable(bench_coll_loop coll/loop_bench.c)
  target_link_libraries(bench_coll_loop PRIVATE hmpi::mpi)
  set_target_properties(bench_coll_loop PROPERTIES
    OUTPUT_NAME loop_bench
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
  # bench_entry_skew (output name entry_skew): how far apart a barrier
  # leaves the ranks before a timed call, and what that does to their times
  # (bench/coll/entry_skew.c), with a smoke run in ctest.
  add_executable(bench_entry_skew coll/entry_skew.c)
  target_link_libraries(bench_entry_skew PRIVATE hmpi::mpi)
  set_target_properties(bench_entry_skew PROPERTIES
    OUTPUT_NAME entry_skew
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
endif()
