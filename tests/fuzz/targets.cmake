# The libFuzzer targets, one per parser of user input: tests/fuzz/<name>.cpp, its
# seed corpus tests/fuzz/corpus/<name>/ and dictionary tests/fuzz/dict/<name>.dict. Shared by the
# fuzz build (CMakeLists.txt here, clang) and the corpus replay of the normal build (replay.cmake);
# scripts/fuzz.sh lists the same names (tests/core/test_suite_hygiene.cpp checks all of it).
set(TOPOCAST_FUZZ_TARGETS
  fuzz_topology
  fuzz_cli_args
  fuzz_scenario_json
  fuzz_schedule_json
  fuzz_measured_json
  fuzz_render_options
  fuzz_schedule_csv
  fuzz_msccl_xml
  fuzz_goal)
# The targets that drive topocast-cli's commands or options link them too.
set(TOPOCAST_FUZZ_CLI_TARGETS fuzz_cli_args fuzz_render_options)
