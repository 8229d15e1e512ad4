#!/usr/bin/env bash
# Cost of the task-aware images of xmpc's libcaf (docs/local-view.md, "Coarrays inside
# a task"), 2 processes (NP to change), xmpc's libcaf only:
#  1. before/after, outside any task: caf_bench.f90 (fortran.sh's program) linked with
#     the current runtime ("after") and with caf_lib.c and caf_coll.c of BASE
#     (default be7b480, the commit before images followed tasks) linked over it:
#     what every coindexed access now pays to ask the XMP runtime for the images;
#  2. inside/outside a task: caf_task_bench.f90 runs the same operations outside any
#     task and inside a task on all the nodes (same images, same ranks).
# RUNS (default 5) interleaved runs; the best microseconds per operation and the
# ratios. Prints the load average before and after: timings on a shared machine are
# noisy, compare the ratios of one run.
#
#   testsuite/bench/local/task.sh [RUNS]      (needs xmpc built: cargo build -p xmpc -p xmpc-rt; git for BASE)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
xmpc="${XMPC:-}"
if [ -z "$xmpc" ]; then
  xmpc="$root/target/release/xmpc"
  if [ ! -x "$xmpc" ] || [ "$root/target/debug/xmpc" -nt "$xmpc" ]; then xmpc="$root/target/debug/xmpc"; fi
fi
runs="${1:-5}"
np="${NP:-2}"
base="${BASE:-be7b480}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
# BASE's libcaf: its caf_lib.c and caf_coll.c compiled here and linked as objects, so
# the runtime archive's members of the same names are not pulled in
mkdir old
for f in caf_lib.c caf_coll.c caf_lib.h; do git -C "$root" show "$base:runtime/lib/xmp/csrc/$f" > "old/$f"; done
for f in caf_lib caf_coll; do mpicc -O2 -c "old/$f.c" -o "old/$f.o"; done
XMPC_CAF=xmpc "$xmpc" -O2 "$here/caf_bench.f90" -o after_bench
XMPC_CAF=xmpc "$xmpc" -O2 "$here/caf_bench.f90" old/caf_lib.o old/caf_coll.o -o before_bench
# (the before binary must not hold the new image lookup)
if nm before_bench | grep -q caf_coll_comm; then echo "task.sh: before_bench holds the new libcaf" >&2; exit 1; fi
XMPC_CAF=xmpc "$xmpc" -O2 "$here/caf_task_bench.f90" -o task_bench
echo "load before: $(uptime)"
for r in $(seq "$runs"); do
  for side in before after task; do
    mpiexec -n "$np" "./${side}_bench" 2>/dev/null | grep -E '^[a-z_0-9A-Z-]+ +[0-9.]+$' | sed "s/^/$side /" >> all.txt
  done
done
echo "load after:  $(uptime)"
echo "== outside any task: $base's libcaf (before) and this one (after), $np processes, best of $runs"
awk '$1 != "task" { k = $2; v = $3 + 0
    if (!(k in seen)) { seen[k] = 1; order[++n] = k }
    if (!(($1, k) in best) || v < best[$1, k]) best[$1, k] = v }
  END { printf "%-12s %12s %12s %8s\n", "operation", "before us", "after us", "after/before"
    for (i = 1; i <= n; i++) { k = order[i]; printf "%-12s %12.3f %12.3f %8.2f\n", k, best["before", k], best["after", k], best["after", k] / best["before", k] } }' all.txt
echo "== this libcaf outside any task (out) and inside a task on all nodes (in), $np processes, best of $runs"
awk '$1 == "task" { split($2, p, "-"); k = p[1]; v = $3 + 0
    if (!(k in seen)) { seen[k] = 1; order[++n] = k }
    if (!((p[2], k) in best) || v < best[p[2], k]) best[p[2], k] = v }
  END { printf "%-12s %12s %12s %8s\n", "operation", "out us", "in us", "in/out"
    for (i = 1; i <= n; i++) { k = order[i]; printf "%-12s %12.3f %12.3f %8.2f\n", k, best["out", k], best["in", k], best["in", k] / best["out", k] } }' all.txt
