#!/usr/bin/env bash
# Builds topocast and launches the desktop app on the default scenario (8×8×8 mesh, minimum-TCD
# broadcast from an eye, playing). Without a display the app says how to run it under xvfb-run;
# the headless front end is ./build/cli/topocast-cli.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j2 --target topocast topocast-cli
exec ./build/app/topocast --default "$@"
