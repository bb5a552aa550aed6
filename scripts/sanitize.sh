#!/usr/bin/env bash
# Builds core, CLI and tests with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan
# (-DTOPOCAST_SANITIZE=ON) and runs the whole test suite under them. Any sanitizer report fails
# the test that triggered it (UBSan aborts, LeakSanitizer fails the process at exit).
#
#   scripts/sanitize.sh         # core + CLI tests
#   scripts/sanitize.sh --app   # also the Qt app and its tests, where Qt is installed (CI runs this;
#                               # LeakSanitizer is off for the app tests: see tests/app/CMakeLists.txt)
#
# Built with clang and TOPOCAST_FUZZ=ON: the same build holds the libFuzzer targets, so CI's fuzz
# stage (scripts/fuzz.sh with TOPOCAST_FUZZ_BUILD=build-asan) runs them without a second build of
# core and CLI. clang's UBSan checks a little more than GCC's (function, vptr).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TOPOCAST_ASAN_BUILD:-$root/build-asan}
app=OFF
[ "${1:-}" = "--app" ] && app=ON

# -O1 -g1 (functions and line tables, no local variables): the optimisation level the sanitizers'
# own documentation suggests, with stack traces that name file and line, and about half the
# compile time of -O2 -g (one test file under ASan: 15.7 s against 34.5 s).
# A build folder configured with another compiler (GCC, before the fuzz targets moved here) starts over.
if [ -f "$build/CMakeCache.txt" ] && ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++' "$build/CMakeCache.txt"; then
  rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DTOPOCAST_SANITIZE=ON -DTOPOCAST_FUZZ=ON \
  -DTOPOCAST_BUILD_APP=$app -DTOPOCAST_BUILD_TESTS=ON -DTOPOCAST_REQUIRE_ALL=$app -DTOPOCAST_BUILD_BENCH=OFF -DTOPOCAST_BUILD_MPI=OFF >/dev/null
cmake --build "$build" -j"${JOBS:-2}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Leaks inside system libraries the app loads (fontconfig, Mesa, D-Bus) are not ours.
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/tests/sanitize/lsan.supp:print_suppressions=0}
rm -f "$build/ctest-junit.xml"
status=0
ctest --test-dir "$build" --output-on-failure -j"${JOBS:-2}" --timeout 900 \
  --output-junit ctest-junit.xml --test-output-size-passed 65536 --test-output-truncation head || status=$?
column=2
[ "$app" = ON ] || column=3
bash "$root/scripts/test-counts.sh" "$build/ctest-junit.xml" $column || status=1
exit $status
