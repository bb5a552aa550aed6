#!/usr/bin/env bash
# Builds topocast (core, CLI, app, MPI replay, benchmarks) and runs every test with ctest.
# Installs the Debian packages it needs first (scripts/install-deps.sh; needs root or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh

build=${TOPOCAST_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build" -j"${TOPOCAST_JOBS:-2}"
ctest --test-dir "$build" --output-on-failure -j"${TOPOCAST_JOBS:-2}"
