# bench_copy_rewrite (output name copy_rewrite): plain C with pthreads, one
# core copying into lines another core has just read, memcpy against a
# string move (runtime/primitives/copy.cpp, StoreKind::rewrite).
find_package(Threads REQUIRED)
add_executable(bench_copy_rewrite copy_rewrite.c)
target_link_libraries(bench_copy_rewrite PRIVATE Threads::Threads)
set_target_properties(bench_copy_rewrite PROPERTIES
  OUTPUT_NAME copy_rewrite
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
