# The fuzz corpora as ordinary tests of the normal build: every target of
# targets.cmake is built again without libFuzzer, with replay_main.cpp as its main, and replays its
# seed corpus tests/fuzz/corpus/<name>/ as the ctest entry "fuzz: <name> corpus replayed", so a
# regression on a seed shows without clang (and under ASan in scripts/sanitize.sh).
include(${CMAKE_CURRENT_LIST_DIR}/targets.cmake)
foreach(name ${TOPOCAST_FUZZ_TARGETS})
  add_executable(${name}_replay ${CMAKE_CURRENT_LIST_DIR}/${name}.cpp ${CMAKE_CURRENT_LIST_DIR}/replay_main.cpp)
  target_link_libraries(${name}_replay PRIVATE topocast::core)
  if(name IN_LIST TOPOCAST_FUZZ_CLI_TARGETS)
    target_link_libraries(${name}_replay PRIVATE topocast_cli_commands)
  endif()
  topocast_warnings(${name}_replay)
  add_test(NAME "fuzz: ${name} corpus replayed"
           COMMAND ${name}_replay ${CMAKE_CURRENT_LIST_DIR}/corpus/${name})
  set_tests_properties("fuzz: ${name} corpus replayed" PROPERTIES TIMEOUT 300)
endforeach()
