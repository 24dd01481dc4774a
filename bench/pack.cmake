# bench_pack (output name pack): MPI_Pack of strided doubles (vector types
# with block lengths 1 and 4) against a hand-written gather loop, built
# against HMPI. bench/run-pack.sh builds the same source with hmpicc,
# mpicc.openmpi and mpicc.mpich and compares them (docs/datatypes.md).
if(TARGET hmpi::mpi)
  add_executable(bench_pack pack.c)
  target_link_libraries(bench_pack PRIVATE hmpi::mpi)
  set_target_properties(bench_pack PROPERTIES
    OUTPUT_NAME pack
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
endif()
