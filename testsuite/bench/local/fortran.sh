#!/usr/bin/env bash
# XMP local view (Fortran coarrays) against hand-written MPI-3 one-sided code, 2
# processes: coindexed put/get of 8 B and 1 MiB (vs MPI_Put/MPI_Get + flush),
# co_sum of a double (vs MPI_Allreduce), sync all (vs flush + barrier + win_sync)
# and a 2-D halo exchange (two column puts + sync all, vs two MPI_Put + flush +
# barrier). The same coarray program (caf_bench.f90) is linked twice: with
# OpenCoarrays (XMPC_CAF=opencoarrays) and with xmpc's own libcaf (XMPC_CAF=xmpc,
# runtime/lib/xmp/csrc/caf_*.c); mpi_bench.c is the hand-written MPI. Each runs RUNS
# times (default 5), interleaved, so all three see the same load; the table shows
# the best microseconds per operation and the ratios to the hand-written MPI, with
# the issue's goals (within 2x at 8 B, within 10 % at 1 MiB). Prints the load
# average before and after: timings on a shared machine are noisy.
#
#   testsuite/bench/local/fortran.sh [RUNS]      (needs xmpc built: cargo build -p xmpc -p xmpc-rt)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../../.."
# $XMPC, else the newer of the release and debug builds (the runtime's C is -O2 in both)
xmpc="${XMPC:-}"
if [ -z "$xmpc" ]; then
  xmpc="$root/target/release/xmpc"
  if [ ! -x "$xmpc" ] || [ "$root/target/debug/xmpc" -nt "$xmpc" ]; then xmpc="$root/target/debug/xmpc"; fi
fi
runs="${1:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
XMPC_CAF=opencoarrays "$xmpc" -O2 "$here/caf_bench.f90" -o oca_bench
XMPC_CAF=xmpc "$xmpc" -O2 "$here/caf_bench.f90" -o xmpc_bench
mpicc -O2 "$here/mpi_bench.c" -o mpi_bench
echo "load before: $(uptime)"
for r in $(seq "$runs"); do
  # (UCX may print warnings on standard output: only result lines are kept)
  for side in oca xmpc mpi; do
    mpiexec -n 2 "./${side}_bench" 2>/dev/null | grep -E '^[a-z_0-9A-Z]+ +[0-9.]+$' | sed "s/^/$side /" >> all.txt
  done
done
echo "load after:  $(uptime)"
awk '
  { k = $2; v = $3 + 0; side = $1
    if (!(k in seen)) { seen[k] = 1; order[++n] = k }
    if (!((side, k) in best) || v < best[side, k]) best[side, k] = v }
  END {
    printf "%-12s %12s %12s %12s %9s %9s  %s\n", "operation", "OpenCAF us", "xmpc us", "MPI us", "OCA/MPI", "xmpc/MPI", "goal"
    for (i = 1; i <= n; i++) { k = order[i]
      goal = k ~ /_8B$/ && k ~ /^(put|get)/ ? "<= 2" : (k ~ /_1MiB$/ ? "<= 1.10" : "")
      printf "%-12s %12.3f %12.3f %12.3f %9.2f %9.2f  %s\n", k, best["oca", k], best["xmpc", k], best["mpi", k], best["oca", k] / best["mpi", k], best["xmpc", k] / best["mpi", k], goal
    }
  }' all.txt
