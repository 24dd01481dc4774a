# Groups and communicators (docs/communicators.md): standard MPI programs,
# also run under Open MPI and MPICH by tests/run-with-system-mpi.sh.
set(HMPI_COMM_TESTS
    group          # every group operation against locally computed expectations
    comm_split     # random colors/keys, dup isolation, nested splits, 2000 create/free cycles
    comm_create    # Comm_create (both forms), create_group, compare, names, info, split_type
    comm_idup      # nonblocking dup: no deadlock when peers call it late, several in flight
    intercomm      # Intercomm_create, point-to-point across, remote group, merge, dup
    comm_errors    # error classes under MPI_ERRORS_RETURN
)
foreach(t IN LISTS HMPI_COMM_TESTS)
  hmpi_add_mpi_program(t_${t} t_${t}.c)
  hmpi_add_mpi_test(mpi.${t} PROGRAM t_${t} NP 1 2 3 4 8 16 TIMEOUT 120)
endforeach()
