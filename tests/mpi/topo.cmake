# Virtual topologies (MPI 3.1, chapter 7): Cartesian, graph and distributed
# graph communicators, Dims_create, error classes. Documented in
# docs/topologies.md.
set(HMPI_TOPO_TESTS
    topo_cart       # create/get/rank/coords/shift/sub/map, halo exchange, reorder consistency
    topo_graph      # Graph_create ring/star, neighbors, Graph_get, Graph_map
    topo_distgraph  # Dist_graph_create(_adjacent), weights, MPI_UNWEIGHTED, traffic along the edges
    topo_dims       # Dims_create against an exhaustive reference
    topo_errors     # MPI_ERR_TOPOLOGY/DIMS/ARG/RANK/COMM under MPI_ERRORS_RETURN
)
foreach(t IN LISTS HMPI_TOPO_TESTS)
  hmpi_add_mpi_program(t_${t} t_${t}.c)
  hmpi_add_mpi_test(mpi.${t} PROGRAM t_${t} NP 1 2 3 4 6 8 12 16 TIMEOUT 120)
endforeach()

# The same Cartesian test on pretend machines (hwloc reads HWLOC_SYNTHETIC)
# where Cart_create with reorder = 1 renumbers ranks into blocks: 4 L3
# domains x 3 cores (12 ranks: the 3x2x2 grid is renumbered) and 4 x 4 (16
# ranks: the 4x4 grids not periodic in both dimensions are). The grids must
# stay consistent.
hmpi_add_mpi_test(mpi.topo_cart_l3blocks PROGRAM t_topo_cart NP 12 16 TIMEOUT 120)
set_property(TEST mpi.topo_cart_l3blocks.np12 APPEND PROPERTY ENVIRONMENT "HWLOC_SYNTHETIC=pack:1 l3:4 core:3 pu:1")
set_property(TEST mpi.topo_cart_l3blocks.np16 APPEND PROPERTY ENVIRONMENT "HWLOC_SYNTHETIC=pack:2 l3:2 core:4 pu:1")
