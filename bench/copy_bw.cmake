# bench_copy_bw_threads (output name copy_bw_threads): the copy bandwidth of
# N pinned threads copying at once (bench/copy_bw_threads.c), which bounds a
# large collective on N ranks (bench/coll/analyze.py's large Allreduce
# bound). Plain C; bench/coll/run.sh compiles the same source itself.
find_package(Threads REQUIRED)
add_executable(bench_copy_bw_threads copy_bw_threads.c)
target_link_libraries(bench_copy_bw_threads PRIVATE Threads::Threads)
set_target_properties(bench_copy_bw_threads PROPERTIES
  OUTPUT_NAME copy_bw_threads
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
