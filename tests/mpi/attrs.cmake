# Attributes, info objects, error handlers and error classes, and the small
# functions of api/misc.cpp (docs/attributes-info.md, docs/errors.md).
set(HMPI_ATTR_TESTS
    attr         # comm keyvals and callbacks, dup/free, freed keyvals, deprecated forms, predefined attributes
    info         # info objects, limits and error classes, MPI_INFO_ENV
    errhandler   # user handlers, refcounts, Comm_call_errhandler, user classes/codes/strings
    misc         # Alloc_mem/Free_mem, Pcontrol, Message_c2f/f2c
)
foreach(t IN LISTS HMPI_ATTR_TESTS)
  hmpi_add_mpi_program(t_${t} t_${t}.c)
  hmpi_add_mpi_test(mpi.${t} PROGRAM t_${t} NP 1 2 3 4 8 16 TIMEOUT 60)
endforeach()

# The fatal paths, checked on hmpirun's output like tests/launcher's
# fatal_arg: the sources live with the launcher tests (they cannot run
# under another MPI's test runner), the registration is this area's.
foreach(prog errors_abort fatal_user_code)
  hmpi_add_mpi_program(launcher_${prog} ${CMAKE_SOURCE_DIR}/tests/launcher/${prog}.c)
endforeach()
add_test(NAME launcher.errors_abort
         COMMAND ${CMAKE_SOURCE_DIR}/tests/launcher/expect.sh nonzero
                 "rank 2([^0-9]|$)" "MPI_Send" "MPI_ERR_TAG" "tag = -5" --
                 $<TARGET_FILE:hmpirun> -np 3 --timeout 60 $<TARGET_FILE:launcher_errors_abort>)
add_test(NAME launcher.fatal_user_code
         COMMAND ${CMAKE_SOURCE_DIR}/tests/launcher/expect.sh nonzero
                 "rank 1([^0-9]|$)" "MPI_Comm_call_errhandler" "user error code [0-9]+ of class [0-9]+"
                 "the flux capacitor overheated" --
                 $<TARGET_FILE:hmpirun> -np 2 --timeout 60 $<TARGET_FILE:launcher_fatal_user_code>)
set_tests_properties(launcher.errors_abort launcher.fatal_user_code PROPERTIES TIMEOUT 90 LABELS "launcher;mpi")

# Attributes on derived datatypes, and the cross-area error paths (these need
# the datatype constructors).
foreach(t attr_type errors_args)
  hmpi_add_mpi_program(t_${t} t_${t}.c)
  hmpi_add_mpi_test(mpi.${t} PROGRAM t_${t} NP 1 2 3 4 8 TIMEOUT 60)
endforeach()
