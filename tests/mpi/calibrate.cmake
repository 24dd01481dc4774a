# hmpi-calibrate (tools/hmpi-calibrate, docs/model.md): a quick calibration
# writes a sane profile that the runtime loads; missing, malformed and
# foreign profiles fall back to the default with one notice.
add_test(NAME tools.calibrate_quick
         COMMAND ${CMAKE_SOURCE_DIR}/tools/hmpi-calibrate/test-quick.sh $<TARGET_FILE:hmpi-calibrate>
                 $<TARGET_FILE:hmpi-info> ${CMAKE_CURRENT_BINARY_DIR}/calibrate-quick)
set_tests_properties(tools.calibrate_quick PROPERTIES TIMEOUT 180 LABELS "unit;tools")
