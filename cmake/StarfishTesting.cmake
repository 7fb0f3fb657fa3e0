# starfish_add_test(<name> SOURCES <files...> [LIBS <targets...>] [SYSTEMC]
#                   [LABELS <labels...>] [TIMEOUT <seconds>] [ARGS <args...>])
#
# Builds one Boost.Test executable and registers it with CTest. With SYSTEMC the
# executable's entry point is sc_main, which hands over to Boost.Test's runner
# (SystemC elaborates once per process: scenarios that each need a fresh model
# run in forked children, see sim/runner/isolated_run.h). Without SYSTEMC it is
# a plain Boost.Test main and must not link SystemC (firmware tests).
function(starfish_add_test name)
  cmake_parse_arguments(T "SYSTEMC" "TIMEOUT" "SOURCES;LIBS;LABELS;ARGS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  if(T_SYSTEMC)
    target_link_libraries(${name} PRIVATE starfish_test_sc_main PkgConfig::SYSTEMC)
  else()
    target_link_libraries(${name} PRIVATE starfish_test_main)
  endif()
  target_link_libraries(${name} PRIVATE ${T_LIBS})
  add_test(NAME ${name} COMMAND ${name} --report_level=short ${T_ARGS})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT})
  if(T_LABELS)
    set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
  endif()
endfunction()
