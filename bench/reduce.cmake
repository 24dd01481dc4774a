# bench_reduce_local (output name reduce_local): MPI_Reduce_local(MPI_SUM)
# on float and double arrays against memcpy of the same bytes, built against
# HMPI. bench/run-reduce.sh builds the same source with hmpicc,
# mpicc.openmpi and mpicc.mpich and compares them (docs/reductions.md).
if(TARGET hmpi::mpi)
  add_executable(bench_reduce_local reduce_local.c)
  target_link_libraries(bench_reduce_local PRIVATE hmpi::mpi)
  set_target_properties(bench_reduce_local PROPERTIES
    OUTPUT_NAME reduce_local
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
endif()
