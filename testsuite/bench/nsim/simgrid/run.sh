#!/usr/bin/env bash
# SimGrid SMPI side by side with NSIM on the same torus (flow-level CM02 model,
# no TCP window, no cross traffic). SMPI is a measuring peer only.
#
#   testsuite/bench/nsim/simgrid/run.sh [quick|paper|bgl]
#
# Needs `apt-get install -y libsimgrid-dev` (smpicc, smpirun). TIMEOUT=600 s per case.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
cfgdir="$here/../configs"
mode=${1:-quick}
TIMEOUT=${TIMEOUT:-600}
command -v smpicc >/dev/null || { echo "smpicc not found (apt-get install -y libsimgrid-dev)"; exit 1; }
if [ -z "${NSIM:-}" ]; then
  (cd "$root" && cargo build --release -q -p xmpc-nsim --bin xmpc-nsim) || exit 1
  NSIM="${CARGO_TARGET_DIR:-$root/target}/release/xmpc-nsim"
fi
work=${WORK:-$(mktemp -d)}
smpicc -O2 -o "$work/ring" "$here/ring.c" 2>/dev/null || exit 1
smpicc -O2 -o "$work/a2a" "$here/a2a.c" 2>/dev/null || exit 1
FLAGS="--cfg=network/model:CM02 --cfg=network/TCP-gamma:0 --cfg=network/crosstraffic:0 --cfg=smpi/host-speed:1Gf --cfg=smpi/simulate-computation:no --log=root.thres:critical"
# the BG/L config charges 1.5 us send and receive overheads: same in SMPI
BGL="--cfg=smpi/os:0:1.5e-6:0 --cfg=smpi/or:0:1.5e-6:0"
echo "# SMPI vs NSIM ($(date -u +%FT%TZ), load: $(cut -d' ' -f1-3 /proc/loadavg))"
printf '| %-30s | %6s | %12s | %10s | %12s | %10s |\n' case ranks "SMPI [ms]" "SMPI wall" "NSIM [ms]" "NSIM wall"
printf '|%s|%s|%s|%s|%s|%s|\n' -------------------------------- -------- -------------- ------------ -------------- ------------
side() { # name config ranks smpi-program-and-args nsim-pattern [extra smpi flags]
  local name=$1 conf=$2 n=$3 prog=$4 pat=$5 extra=${6:-}
  "$NSIM" simgrid-platform "$cfgdir/$conf.toml" > "$work/$conf.xml"
  seq 0 $((n - 1)) | sed 's/^/node-/' > "$work/$conf.hosts"
  local t0 t1 sp sw np nw out
  t0=$(date +%s.%N)
  out=$(timeout "$TIMEOUT" smpirun -np "$n" -platform "$work/$conf.xml" -hostfile "$work/$conf.hosts" \
        $FLAGS $extra "$work"/$prog 2>&1)
  local rc=$?
  t1=$(date +%s.%N)
  sp=$(sed -n 's/.*predicted_ms=\([^ ]*\).*/\1/p' <<<"$out" | head -1)
  [ $rc -eq 124 ] && sp="timeout"
  [ -z "$sp" ] && sp="error"
  sw=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f s", b-a}')
  out=$(timeout "$TIMEOUT" "$NSIM" run -q --brief -c "$cfgdir/$conf.toml" -n "$n" -p "$pat" 2>&1)
  np=$(sed -n 's/.*sim_ms=\([^ ]*\).*/\1/p' <<<"$out")
  nw=$(sed -n 's/.*wall_s=\([^ ]*\).*/\1 s/p' <<<"$out")
  printf '| %-30s | %6s | %12s | %10s | %12s | %10s |\n' "$name" "$n" "$sp" "$sw" "${np:-error}" "${nw:--}"
}
case $mode in
  quick)
    side "ring 1MiB x5" torus1k 1024 "ring 1M 5" ring:bytes=1M,loops=5
    side "alltoall pair 4B" torus1k 1024 "a2a pair 4" alltoall:bytes=4
    side "BG/L bruck 2KiB" bgl128 128 "a2a bruck 2K" bruck:bytes=2K "$BGL"
    ;;
  paper)
    side "ring 1MiB x5" torus1k 1024 "ring 1M 5" ring:bytes=1M,loops=5
    side "ring 1MiB x5" torus2k 2048 "ring 1M 5" ring:bytes=1M,loops=5
    side "alltoall pair 4B" torus1k 1024 "a2a pair 4" alltoall:bytes=4
    side "alltoall pair 4B" torus4k 4096 "a2a pair 4" alltoall:bytes=4
    ;;
  bgl)
    for b in 8 128 2K 8K 64K 256K; do side "BG/L bruck $b" bgl128 128 "a2a bruck $b" "bruck:bytes=$b" "$BGL"; done
    ;;
esac
