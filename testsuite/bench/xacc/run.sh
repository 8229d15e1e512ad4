#!/bin/sh
# Issue 16's benchmark tables, at 2 processes, in one go:
#   1. reflect_do through xmpc vs a hand-written halo exchange (reflect_do.py);
#   2. BSIM replay of the hybrid allreduce on the thesis' platform, next to its
#      figures (testsuite/bench/tca/run.py);
#   3. hybrid (TCA emulated over a shared-memory window) vs MPI-only allreduce,
#      bcast and allgather latency on this machine (same script).
# Each table prints the load average it ran under.
#
#   testsuite/bench/xacc/run.sh            # builds xmpc, the runtime, tca-bench and bsim (release)
#   XMPC=target/debug/xmpc XMPC_RUNTIME_DIR=target/release testsuite/bench/xacc/run.sh
#                                          # a debug xmpc linking the release runtime
# REFLECT_ARGS (e.g. "--rounds 11") and TCA_ARGS (e.g. "--quick") pass options on.
set -e
cd "$(dirname "$0")/../../.."
echo "# issue 16 benchmarks ($(date -u '+%Y-%m-%d %H:%M UTC'); load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores)"
echo
if [ -z "$XMPC" ]; then
    nice cargo build --release -q -p xmpc -p xmpc-rt
    XMPC=target/release/xmpc
fi
echo "## reflect_do through xmpc vs hand-written (2 processes)"
echo
# shellcheck disable=SC2086
python3 testsuite/bench/xacc/reflect_do.py --np 2 --xmpc "$XMPC" $REFLECT_ARGS
echo
# shellcheck disable=SC2086
python3 testsuite/bench/tca/run.py $TCA_ARGS
