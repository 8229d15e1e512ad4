#!/bin/sh
# Builds the runtime (release) and the halo benchmark, runs it on 2 processes.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$here/../../target}
cargo build -q -p xmpc-rt --release
${MPICC:-mpicc} -O2 -o /tmp/xmpc-halo "$here/bench/halo.c" -I "$here/include" \
  "$CARGO_TARGET_DIR/release/libxmpc_rt.a" -lgcc_s -lutil -lrt -lpthread -lm -ldl
for i in 1 2 3; do mpiexec -n ${NP:-2} /tmp/xmpc-halo; done
