# Collective operations (MPI 3.1, chapter 5 and 7.6-7.7): standard MPI C
# programs that check every result against values computed locally
# (colltest.h). They also pass under Open MPI: tests/run-with-system-mpi.sh.
#
#   t_coll           every blocking collective on intracommunicators: sweeps of
#                    every collective x communicator and every op x type, then
#                    random cases (counts 0 to a few MiB, roots, derived and
#                    signature-matching types, MPI_IN_PLACE, sub-communicators).
#                    Also the per-algorithm runs (tests/coll/run-per-algorithm.sh)
#                    and the stress mode (t_coll --stress, not in CI).
hmpi_add_mpi_program(t_coll t_coll.c)
hmpi_add_mpi_test(mpi.coll PROGRAM t_coll NP 1 2 3 5 7 8 16 TIMEOUT 120)

#   t_coll_nb        every nonblocking collective (I-forms): the same checks,
#                    several outstanding on one and on several communicators,
#                    mixed with blocking collectives and point-to-point, every
#                    completion call (Wait/Test/all/any/some, get_status), 24
#                    outstanding on one communicator, MPI_Comm_free while pending.
hmpi_add_mpi_program(t_coll_nb t_coll_nb.c)
hmpi_add_mpi_test(mpi.coll_nb PROGRAM t_coll_nb NP 1 2 3 5 8 16 TIMEOUT 120)

#   t_coll_inter     the intercommunicator forms (groups of different sizes,
#                    MPI_ROOT / MPI_PROC_NULL roots, data between the groups only),
#                    blocking and nonblocking.
hmpi_add_mpi_program(t_coll_inter t_coll_inter.c)
hmpi_add_mpi_test(mpi.coll_inter PROGRAM t_coll_inter NP 2 3 5 7 8 16 TIMEOUT 120)

#   t_coll_neighbor  neighborhood collectives and their I-forms on Cartesian
#                    grids (periodic, not, dimensions of 1 and 2 processes),
#                    a graph and a distributed graph (repeated edges, a self
#                    edge, a process without neighbors).
hmpi_add_mpi_program(t_coll_neighbor t_coll_neighbor.c)
hmpi_add_mpi_test(mpi.coll_neighbor PROGRAM t_coll_neighbor NP 1 2 3 4 6 9 16 TIMEOUT 120)

#   t_coll_errors    argument errors under MPI_ERRORS_RETURN (root, datatype,
#                    count, op, communicator, MPI_IN_PLACE, request, topology):
#                    the error class, and valid collectives keep working.
hmpi_add_mpi_program(t_coll_errors t_coll_errors.c)
hmpi_add_mpi_test(mpi.coll_errors PROGRAM t_coll_errors NP 1 2 3 4 TIMEOUT 60)

#   t_coll_mt        MPI_THREAD_MULTIPLE: three threads per process, each running
#                    random checked collectives on its own communicators at once.
hmpi_add_mpi_program(t_coll_mt t_coll_mt.c)
target_link_libraries(t_coll_mt PRIVATE Threads::Threads)
hmpi_add_mpi_test(mpi.coll_mt PROGRAM t_coll_mt NP 1 2 3 4 8 TIMEOUT 120)
