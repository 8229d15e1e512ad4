#!/usr/bin/env bash
# xmpc-prof overhead benchmark: 0-byte ping-pong between 2 ranks with and
# without the profiler, plus the no-MPI bookkeeping micro-benchmark.
#
#   testsuite/bench/prof/overhead.sh [RUNS] [ITERS] [BLOCKS]
#
# Each run starts 2 ranks with libxmpc_prof.so preloaded; inside the run,
# blocks of ITERS round trips alternate between PMPI_Send/PMPI_Recv (not
# profiled) and MPI_Send/MPI_Recv (profiled), so both are measured in the
# same processes. A control run without the profiler checks that MPI_* and
# PMPI_* cost the same there. Figures are medians over all blocks of all
# runs. Every round trip has 4 profiled calls on its critical path
# (2 per rank), so added cost per call = added per half round trip / 2.
# Set SKIP_CRITERION=1 to skip `cargo bench`.
set -euo pipefail
RUNS=${1:-5}
ITERS=${2:-20000}
BLOCKS=${3:-10}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

(cd "$ROOT" && cargo build --release -p xmpc-prof >&2)
LIB=$TARGET/release/libxmpc_prof.so
[ -f "$LIB" ] || { echo "missing $LIB" >&2; exit 1; }
mpicc -O2 "$ROOT/testsuite/bench/prof/pingpong.c" -o "$WORK/pingpong"

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) {print "nan"} else if (NR%2) {print a[(NR+1)/2]} else {print (a[NR/2]+a[NR/2+1])/2}}'; }

: >"$WORK/prof.txt"
: >"$WORK/ctrl.txt"
for r in $(seq 1 "$RUNS"); do
  (cd "$WORK" && XMPC_PROF_OUTPUT_DIR="$WORK" mpiexec -n 2 -bind-to core env LD_PRELOAD="$LIB" ./pingpong "$ITERS" "$BLOCKS") >>"$WORK/prof.txt"
  (cd "$WORK" && mpiexec -n 2 -bind-to core ./pingpong "$ITERS" "$BLOCKS") >>"$WORK/ctrl.txt"
done

P_PLAIN=$(awk '$1=="pmpi"{print $2}' "$WORK/prof.txt" | median)
P_PROF=$(awk '$1=="mpi"{print $2}' "$WORK/prof.txt" | median)
C_PLAIN=$(awk '$1=="pmpi"{print $2}' "$WORK/ctrl.txt" | median)
C_MPI=$(awk '$1=="mpi"{print $2}' "$WORK/ctrl.txt" | median)
# paired per-block differences (robust to drift between blocks)
DIFF=$(paste <(awk '$1=="pmpi"{print $2}' "$WORK/prof.txt") <(awk '$1=="mpi"{print $2}' "$WORK/prof.txt") | awk '{print $2-$1}' | median)
CDIFF=$(paste <(awk '$1=="pmpi"{print $2}' "$WORK/ctrl.txt") <(awk '$1=="mpi"{print $2}' "$WORK/ctrl.txt") | awk '{print $2-$1}' | median)
OVH=$(python3 - "$WORK/xmpc_prof.json" 2>/dev/null <<'PY' || true
import json, sys
t = json.load(open(sys.argv[1]))["timer"]
print("%.1f ns (timer pair %.1f + record %.1f, %s)" % (t["overhead_ns"], t["timer_pair_ns"], t["record_ns"], t["source"]))
PY
)

echo
echo "xmpc-prof overhead: 0-byte ping-pong, 2 ranks, $RUNS runs x $BLOCKS blocks x $ITERS round trips (medians)"
printf '%-52s %12s\n' "measure" "ns"
printf '%-52s %12.1f\n' "half round trip, PMPI (no profiler in path)" "$P_PLAIN"
printf '%-52s %12.1f\n' "half round trip, MPI via libxmpc_prof" "$P_PROF"
printf '%-52s %12.1f\n' "added per half round trip (paired blocks)" "$DIFF"
printf '%-52s %12.1f\n' "added per MPI call (= half-RTT delta / 2)" "$(awk -v d="$DIFF" 'BEGIN{print d/2}')"
printf '%-52s %12.1f\n' "control: half RTT PMPI, no preload" "$C_PLAIN"
printf '%-52s %12.1f\n' "control: half RTT MPI, no preload" "$C_MPI"
printf '%-52s %12.1f\n' "control: MPI - PMPI without profiler (paired)" "$CDIFF"
[ -n "$OVH" ] && echo "calibrated per-call overhead at MPI_Init: $OVH"
echo "target: added per call <= 60 ns (paper: 714 ns)"

if [ "${SKIP_CRITERION:-0}" != 1 ]; then
  echo
  echo "bookkeeping alone (criterion, no MPI; target <= 20 ns):"
  (cd "$ROOT" && cargo bench -p xmpc-prof --bench bookkeeping -- --noplot 2>/dev/null | grep -E "time:|^record")
fi
