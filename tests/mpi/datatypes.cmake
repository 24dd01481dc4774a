# Datatype tests (constructors, packing, typed point-to-point, error classes).
hmpi_add_mpi_program(t_dtype_constructors t_dtype_constructors.c)
hmpi_add_mpi_test(mpi.dtype_constructors PROGRAM t_dtype_constructors NP 1 2 4 TIMEOUT 60)
hmpi_add_mpi_program(t_dtype_pack t_dtype_pack.c)
hmpi_add_mpi_test(mpi.dtype_pack PROGRAM t_dtype_pack NP 1 2 4 TIMEOUT 90)
hmpi_add_mpi_program(t_dtype_p2p t_dtype_p2p.c)
hmpi_add_mpi_test(mpi.dtype_p2p PROGRAM t_dtype_p2p NP 1 2 3 4 8 TIMEOUT 120)
hmpi_add_mpi_program(t_dtype_errors t_dtype_errors.c)
hmpi_add_mpi_test(mpi.dtype_errors PROGRAM t_dtype_errors NP 1 2 3 TIMEOUT 60)
