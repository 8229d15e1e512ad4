#!/usr/bin/env bash
# Installs what ./test.sh needs on a fresh Debian 12 (as root): MPICH, gfortran,
# OpenCoarrays, make, cmake, llvm-mca, SimGrid, and NVIDIA's nvcc from PyPI in a cache
# folder. Shared with CI (.ci/run runs it, then ./test.sh with every tool required).
set -euo pipefail
cd "$(dirname "$0")"

need=()
command -v mpicc >/dev/null 2>&1 || need+=(mpich libmpich-dev)
command -v mpif90 >/dev/null 2>&1 || need+=(gfortran)
command -v gfortran >/dev/null 2>&1 || need+=(gfortran)
command -v cc >/dev/null 2>&1 || need+=(gcc)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
# Fortran coarrays (XMP local view) link OpenCoarrays for MPICH (docs/local-view.md)
pkg-config --exists caf-mpich 2>/dev/null || need+=(libcoarrays-mpich-dev)
# CMake configures a project with CC=xmpcc FC=xmpf90 (tests/driver_gcc.rs; required here)
command -v cmake >/dev/null 2>&1 || need+=(cmake)
# Omni's suites are built by their own Makefiles (test.sh)
command -v make >/dev/null 2>&1 || need+=(make)
# PSIM prints llvm-mca's figures beside its own (docs/psim.md); the test requires it here
{ command -v llvm-mca >/dev/null 2>&1 || command -v llvm-mca-14 >/dev/null 2>&1; } || need+=(llvm-14)
# BSIM's SMPI test compares predictions with SimGrid SMPI (docs/bsim.md); required here
{ command -v smpirun >/dev/null 2>&1 && command -v smpicc >/dev/null 2>&1; } || need+=(libsimgrid-dev)
# OTF2 trace export of BSIM runs (Score-P/Vampir), read back by otf2-print in the tests
[ -f /usr/include/otf2/otf2.h ] || need+=(libotf2-trace-dev)
command -v otf2-print >/dev/null 2>&1 || need+=(otf2-tools)
# PajeNG's pj_dump reads BSIM's Paje export back in the tests
command -v pj_dump >/dev/null 2>&1 || need+=(pajeng)
# charts: text is drawn with the system fonts (fontdb), DejaVu at least
[ -d /usr/share/fonts/truetype/dejavu ] || need+=(fonts-dejavu-core)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found; this project needs a Rust toolchain (rustup, 1.80 or newer)" >&2
  exit 1
fi

# XMP-dev: NVIDIA's nvcc from PyPI (pinned to the CUDA 13.0 the GPU machines' driver
# accepts) in a cache folder, not system-wide; the tests compile every generated
# kernel with it, and fail if it is missing (XMPC_REQUIRE_NVCC=1).
export XMPC_CUDA_CACHE="${XMPC_CUDA_CACHE:-$HOME/.cache/xmpc-cuda}"
if [ ! -x "$XMPC_CUDA_CACHE/nvidia/cu13/bin/nvcc" ]; then
  if ! python3 -m pip --version >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends python3-pip >/dev/null
  fi
  echo "setup: installing nvcc 13.0 (PyPI) into $XMPC_CUDA_CACHE"
  python3 -m pip install -q --no-deps --target "$XMPC_CUDA_CACHE" \
    nvidia-cuda-nvcc==13.0.88 nvidia-nvvm==13.0.88 nvidia-cuda-crt==13.0.88 nvidia-cuda-runtime==13.0.96
fi
