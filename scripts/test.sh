#!/usr/bin/env bash
# Builds topocast (core, CLI, app, MPI replay, benchmarks) and runs every test with ctest.
# Installs the Debian packages it needs first (scripts/install-deps.sh; needs root or sudo).
# Configures with TOPOCAST_REQUIRE_ALL=ON: a part that cannot be built (no Qt, FFmpeg, MPI, Xvfb…)
# is a configure error, never a suite left out in silence. Ends with the test cases run per suite
# (scripts/test-counts.sh), failing if a suite ran fewer than its floor in tests/floors.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh

build=${TOPOCAST_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTOPOCAST_REQUIRE_ALL=ON
cmake --build "$build" -j"${TOPOCAST_JOBS:-2}"
rm -f "$build/ctest-junit.xml"
status=0
ctest --test-dir "$build" --output-on-failure -j"${TOPOCAST_JOBS:-2}" \
  --output-junit ctest-junit.xml --test-output-size-passed 65536 --test-output-truncation head || status=$?
bash scripts/test-counts.sh "$build/ctest-junit.xml" || status=1
exit $status
