#!/usr/bin/env bash
# PSIM skeletons against reality: each program of testsuite/mpi runs for real with
# mpiexec -n 2 (time_s of the iteration loop, median of $REPS runs), and its skeleton
# built with `--skeletonize --model psim:MACHINE.toml` (every compute block's time a
# closed form of the model, nothing measured) runs under BSIM with a calibrated
# platform. Prints real (median and fastest of the runs: other tenants of a shared host
# only add time) and predicted time and compute time and the errors, then the
# same skeletons built for the A64FX and SPARC64-V + 16-PE SIMD machine files (a
# machine that does not exist: their predictions are not checked against anything,
# the row shows that they run and how the compute time moves).
#
#   testsuite/bench/psim/skeleton.sh                        # REPS=3
#   REPS=5 PROGS="c/cg.c" testsuite/bench/psim/skeleton.sh
# Needs: cargo build -p xmpc -p xmpc-bsim (CARGO_TARGET_DIR honoured), mpicc, mpif90.
set -euo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$PWD
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
REPS=${REPS:-3}
NP=${NP:-2}
MACH=${MACH:-$ROOT/testsuite/psim/machines/this-machine.toml}
PROGS=${PROGS:-"c/jacobi2d.c c/cg.c f/jacobi2d.f90 f/cg.f"}
declare -A ARGS=(
  [c/jacobi2d.c]="3000 40" [f/jacobi2d.f90]="3000 40"
  [c/cg.c]="4000000 40" [f/cg.f]="3000000 40"
)
# the newer of the release and debug builds
X=$(ls -t "$TARGET"/release/xmpc "$TARGET"/debug/xmpc 2>/dev/null | head -1 || true)  # ls fails when one is missing
[ -x "$X" ] || { echo "build xmpc first: cargo build -p xmpc -p xmpc-bsim" >&2; exit 1; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
"$X" bsim calibrate -o plat.toml >&2
# the real runs put all NP ranks on this host: one node, whose memory bandwidth they
# share (PSIM's closed forms ask BSIM_Node_ranks(); the machine file's socket_bandwidth_gbs)
printf '\n[nodes]\nranks_per_node = %d\n' "$NP" >> plat.toml
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg); machine $(basename "$MACH"), np=$NP, $REPS runs each"

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
field() { sed -n "s/.*$1= *\([0-9.eE+-]*\).*/\1/p" | head -1; }

printf "%-16s %10s %10s %10s %8s %8s %10s %10s %8s %12s %12s\n" program real_s real_min pred_s err% err_min% real_cmp pred_cmp err% a64fx_cmp sparc16_cmp
for p in $PROGS; do
  src=$ROOT/testsuite/mpi/$p
  a=${ARGS[$p]}
  case $p in
    *.c) mpicc -O2 "$src" -o real -lm ;;
    *) mpif90 -O2 -fallow-argument-mismatch "$src" -o real 2>/dev/null ;;
  esac
  "$X" "$src" --skeletonize --model "psim:$MACH" -o skel 2>/dev/null
  "$X" "$src" --skeletonize --model "psim:$ROOT/testsuite/psim/machines/a64fx.toml" -o skel_a64 2>/dev/null
  "$X" "$src" --skeletonize --model "psim:$ROOT/testsuite/psim/machines/sparc64v-simd16.toml" -o skel_sparc 2>/dev/null
  : > rt; : > rc; : > pt; : > pc
  for _ in $(seq "$REPS"); do
    out=$(mpiexec -n "$NP" ./real $a)
    echo "$out" | grep -q "CHECK OK" || { echo "real run of $p failed: $out" >&2; exit 1; }
    echo "$out" | field time_s >> rt
    echo "$out" | field compute_s >> rc
    out=$("$X" bsim run ./skel -np "$NP" --platform plat.toml -- $a)
    echo "$out" | field time_s >> pt
    echo "$out" | field compute_s >> pc
  done
  ra=$("$X" bsim run ./skel_a64 -np "$NP" --platform plat.toml -- $a | field compute_s)
  rs=$("$X" bsim run ./skel_sparc -np "$NP" --platform plat.toml -- $a | field compute_s)
  rt_=$(median < rt); pt_=$(median < pt); rc_=$(median < rc); pc_=$(median < pc); rm_=$(sort -g rt | head -1)
  printf "%-16s %10.4f %10.4f %10.4f %+7.1f%% %+7.1f%% %10.4f %10.4f %+7.1f%% %12.4f %12.4f\n" "$p" "$rt_" "$rm_" "$pt_" \
    "$(awk -v a="$rt_" -v b="$pt_" 'BEGIN{print 100*(b-a)/a}')" "$(awk -v a="$rm_" -v b="$pt_" 'BEGIN{print 100*(b-a)/a}')" "$rc_" "$pc_" \
    "$(awk -v a="$rc_" -v b="$pc_" 'BEGIN{print 100*(b-a)/a}')" "$ra" "$rs"
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
