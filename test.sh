#!/usr/bin/env bash
# Runs every test of the workspace (unit, golden snapshots, corpus round trips, CLI,
# real-MPI integration tests) and the full XMP C conformance suite. Needs mpich and
# gfortran (see .ci/run).
set -euo pipefail
cd "$(dirname "$0")"
export INSTA_UPDATE="${INSTA_UPDATE:-no}"
# A plain build first: it puts the runtime library (libxmpc_rt.a) next to the xmpc
# binary, where the driver looks for it (`cargo test` alone leaves only hashed copies).
cargo build --workspace --locked
cargo test --workspace --locked "$@"
# Every conformance program at every process count it declares.
cargo run -q --locked -p xmpc-testsuite -- conformance -j 2
testsuite/apps/check.sh
