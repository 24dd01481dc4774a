# Reduction operations (docs/reductions.md): predefined operations on every
# datatype they are defined for, user operations, error classes. The tests
# are local (MPI_Reduce_local); several ranks run them at once to exercise
# the first-use set-up of the kernel tables from concurrent threads.
hmpi_add_mpi_program(t_op_predefined t_op_predefined.c)
hmpi_add_mpi_test(mpi.op_predefined PROGRAM t_op_predefined NP 1 2 4 TIMEOUT 120)
hmpi_add_mpi_program(t_op_errors t_op_errors.c)
hmpi_add_mpi_test(mpi.op_errors PROGRAM t_op_errors NP 1 2 4 TIMEOUT 60)
hmpi_add_mpi_program(t_op_user t_op_user.c)
hmpi_add_mpi_test(mpi.op_user PROGRAM t_op_user NP 1 2 4 TIMEOUT 60)
