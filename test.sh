#!/usr/bin/env bash
# Runs every test of the workspace (unit, golden snapshots, corpus round trips, CLI,
# real-MPI integration tests). Needs mpich and gfortran (see .ci/run).
set -euo pipefail
cd "$(dirname "$0")"
export INSTA_UPDATE="${INSTA_UPDATE:-no}"
cargo test --workspace --locked "$@"
