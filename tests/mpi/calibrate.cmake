# hmpi-calibrate (tools/hmpi-calibrate, docs/model.md): a quick calibration
# writes a sane profile that the runtime loads; missing, malformed and
# foreign profiles fall back to the default with one notice. It runs alone
# (RUN_SERIAL): its threads spin on flags, and on two cores another test
# beside it turns every round into time slices (148 s under ThreadSanitizer
# with a neighbour, stop 17). A sanitizer build may take 5x the 60 s.
if(HMPI_SANITIZE STREQUAL "")
  set(hmpi_calibrate_quick_limit 60)
else()
  set(hmpi_calibrate_quick_limit 300)
endif()
add_test(NAME tools.calibrate_quick
         COMMAND ${CMAKE_SOURCE_DIR}/tools/hmpi-calibrate/test-quick.sh $<TARGET_FILE:hmpi-calibrate>
                 $<TARGET_FILE:hmpi-info> ${CMAKE_CURRENT_BINARY_DIR}/calibrate-quick ${hmpi_calibrate_quick_limit})
set_tests_properties(tools.calibrate_quick PROPERTIES TIMEOUT 400 RUN_SERIAL TRUE LABELS "unit;tools")

# hmpi-info --machine/--profile: the model replayed for the 16-core machine
# whose profile and benchmark are in docs/results/collectives-np16.
add_test(NAME tools.info_replay
         COMMAND ${CMAKE_SOURCE_DIR}/tools/test-info-replay.sh $<TARGET_FILE:hmpi-info>
                 ${CMAKE_SOURCE_DIR}/docs/results/collectives-np16/profile.txt ${CMAKE_CURRENT_BINARY_DIR}/info-replay)
set_tests_properties(tools.info_replay PROPERTIES TIMEOUT 60 LABELS "unit;tools")
