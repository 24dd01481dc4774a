# Requests beyond point-to-point: generalized requests.
hmpi_add_mpi_program(t_grequest t_grequest.c)
target_link_libraries(t_grequest PRIVATE Threads::Threads)
hmpi_add_mpi_test(mpi.grequest PROGRAM t_grequest NP 1 2 4 TIMEOUT 60)
