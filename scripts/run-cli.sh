#!/usr/bin/env bash
# Builds topocast-cli and prints the default scenario's schedule (8×8×8 mesh broadcast).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j2 --target topocast-cli
./build/cli/topocast-cli schedule --scenario resources/scenarios/default.json "$@"
