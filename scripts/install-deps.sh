#!/usr/bin/env bash
# Installs every Debian 12 package topocast needs to build, test and run.
# Idempotent: packages already present are left as they are. Needs root (or sudo).
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

packages=(
  # toolchain
  build-essential cmake ninja-build ccache pkg-config git
  clang libclang-rt-14-dev            # libFuzzer + sanitizers (robustness)
  clang-format                        # clang-format-14: the format check (tests/format/)
  # core
  libboost-graph-dev nlohmann-json3-dev libcli11-dev libfmt-dev libeigen3-dev
  libexpat1-dev                       # MSCCL XML
  # tests and benchmarks
  catch2 libbenchmark-dev python3-jsonschema   # python3-jsonschema: outputs against resources/schema
  # app: Qt 6.4 + Qt3D + Charts + Svg
  qt6-base-dev qt6-base-dev-tools qt6-3d-dev qt6-charts-dev qt6-svg-dev
  libqt6opengl6-dev qt6-qpa-plugins qt6-3d-defaultgeometryloader-plugin
  libgl-dev libgl1-mesa-dev libgl1-mesa-dri
  # video export
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev
  # headless GUI tests
  xvfb xauth
  poppler-utils                       # pdfinfo / pdftoppm: the handout PDF tests
  # MPI replay
  libopenmpi-dev openmpi-bin
  # the flow-level simulation (SimGrid: S4U in core; SMPI's smpicc and smpirun)
  libsimgrid-dev
  # installing and packaging: manual pages, and the checks of the installed tree and the .deb
  help2man desktop-file-utils appstream shared-mime-info dpkg-dev lintian fonts-dejavu-core
  # the web page export (three.js inlined) and its tests in a real browser
  libjs-three chromium
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
