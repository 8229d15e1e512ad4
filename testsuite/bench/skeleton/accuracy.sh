#!/usr/bin/env bash
# Skeleton predictions against reality (issue #5): the Jacobi 2-D and CG-like programs
# of testsuite/mpi run for real with mpiexec -n 2 and -n 4 (median of $REPS runs);
# their skeletons, with block times measured on this machine (xmpc --skeletonize
# --measure) and l, w from a measured ping-pong (xmpc bsim calibrate), run under BSIM.
# Both print the time of the same region (MPI_Wtime around the iteration loop; virtual
# time in the skeleton) and its compute part. Prints one table row per program and
# process count; errors are (predicted - real) / real. Real runs and predictions
# alternate (REPS of each) so that both see the same machine load. The times shown are
# medians; `err%` compares the two medians, `pair%` is the median of the REPS paired
# errors (each prediction against the real run just before it), which cancels slow
# drifts of the host's speed. Where the two disagree, the host was too noisy for REPS.
#
#   testsuite/bench/skeleton/accuracy.sh            # REPS=3, all rows
#   REPS=5 PROGS="c/cg.c" NPS="2" testsuite/bench/skeleton/accuracy.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$PWD
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
REPS=${REPS:-3}
NPS=${NPS:-"2 4"}
PROGS=${PROGS:-"c/jacobi2d.c c/cg.c f/jacobi2d.f90 f/cg.f"}
declare -A ARGS=(
  [c/jacobi2d.c]="4000 40" [f/jacobi2d.f90]="4000 40"
  [c/cg.c]="4000000 40" [f/cg.f]="2000000 40"
)
cargo build --release -q -p xmpc -p xmpc-bsim -p xmpc-mpiete-rt >&2
X=$TARGET/release/xmpc
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
"$X" bsim calibrate -o plat.toml >&2
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg); platform: $(grep -m2 -E '^(latency|bandwidth)' plat.toml | tr '\n' ' ')"

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
field() { sed -n "s/.*$1= *\([0-9.eE+-]*\).*/\1/p" | head -1; }

printf "%-16s %3s %10s %10s %8s %8s %10s %10s %8s %8s\n" program np real_s pred_s err% pair% real_cmp pred_cmp err% pair%
for p in $PROGS; do
  src=$ROOT/testsuite/mpi/$p
  a=${ARGS[$p]}
  case $p in
    *.c) mpicc -O2 "$src" -o real -lm ;;
    *) mpif90 -O2 -fallow-argument-mismatch "$src" -o real 2>/dev/null ;;
  esac
  for np in $NPS; do
    : > rt; : > rc; : > pt; : > pc
    # Real runs and skeleton predictions (each with its own --measure run) alternate,
    # so both see the same machine load; medians of REPS each.
    for _ in $(seq "$REPS"); do
      out=$(mpiexec -n "$np" ./real $a)
      echo "$out" | grep -q "CHECK OK" || { echo "real run of $p failed: $out" >&2; exit 1; }
      echo "$out" | field time_s >> rt
      echo "$out" | field compute_s >> rc
      "$X" "$src" --skeletonize --measure --np "$np" --run-args "$a" -o skel 2>/dev/null
      out=$("$X" bsim run ./skel -np "$np" --platform plat.toml -- $a)
      echo "$out" | field time_s >> pt
      echo "$out" | field compute_s >> pc
    done
    et=$(paste rt pt | awk '{print 100*($2-$1)/$1}' | median)
    ec=$(paste rc pc | awk '{print 100*($2-$1)/$1}' | median)
    awk -v p="$p" -v np="$np" -v rt="$(median < rt)" -v pt="$(median < pt)" -v rc="$(median < rc)" -v pc="$(median < pc)" -v et="$et" -v ec="$ec" 'BEGIN {
      printf "%-16s %3d %10.4f %10.4f %+7.1f%% %+7.1f%% %10.4f %10.4f %+7.1f%% %+7.1f%%\n", p, np, rt, pt, 100*(pt-rt)/rt, et, rc, pc, 100*(pc-rc)/rc, ec }'
  done
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
