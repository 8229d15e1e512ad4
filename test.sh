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
# Omni's own test suites (../shared/external beside the checkout, or $XMPC_EXTERNAL):
# C and Fortran global view, C and Fortran local view, XcalableACC (gcc's OpenACC host
# fallback), built by their Makefiles with xmpcc/xmpf90: no line passing in the
# committed snapshot (testsuite/omni/*.json) may fail (docs/omni-compat.md, "Running
# Omni's suites").
omni_ext="${XMPC_EXTERNAL:-../shared/external}"
for s in omni-xmp-c omni-xmp-c-local omni-xmp-f omni-xmp-f-local omni-xacc; do
  if [ -d "$omni_ext/$s" ]; then
    cargo run -q --locked -p xmpc-testsuite -- omni "$omni_ext/$s" -j 2
  else
    echo "test.sh: $omni_ext/$s not found: Omni's $s suite NOT run (set XMPC_EXTERNAL to the directory holding it)" >&2
  fi
done
