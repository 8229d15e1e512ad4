#!/usr/bin/env bash
# NSIM case studies: prints a table with simulated time, wall time and events/s.
#
#   testsuite/bench/nsim/run.sh [quick|paper|bgl|all]  (default: quick)
#
#   quick  small sizes (a minute)
#   paper  random ring 1 MiB x 5 at 1K/2K/8K ranks and pairwise all-to-all 4 B
#          at 1K/4K/8K ranks on a 3-D torus, 1 and 2 threads (long: an hour on 2 cores)
#   targets  the acceptance cases in one go (1K/2K ring and 1K/4K all-to-all with 1 and 2
#          threads, 8K ring 1 loop with 1 and 2 threads and 5 loops with 2, 8K all-to-all
#          with 2 threads, BG/L; about 10 minutes on 2 quiet cores)
#   speedup  1K/2K ring and 1K/4K all-to-all with 1 and 2 threads back to back
#   bgl    BlueGene/L-like 128-node torus, Bruck all-to-all 8 B .. 256 KiB
#
# Environment: THREADS="1 2" (thread counts), TIMEOUT=600 (seconds per case),
# NSIM=path/to/xmpc-nsim (default: cargo build --release).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
mode=${1:-quick}
THREADS=${THREADS:-"1 2"}
TIMEOUT=${TIMEOUT:-600}
if [ -z "${NSIM:-}" ]; then
  (cd "$root" && cargo build --release -q -p xmpc-nsim --bin xmpc-nsim) || exit 1
  NSIM="${CARGO_TARGET_DIR:-$root/target}/release/xmpc-nsim"
fi
cfg="$here/configs"
echo "# NSIM case studies ($(date -u +%FT%TZ), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg))"
printf '| %-34s | %6s | %3s | %14s | %9s | %12s | %12s | %9s |\n' case ranks thr "simulated [ms]" "wall [s]" events packet-hops "Mev/s"
printf '|%s|%s|%s|%s|%s|%s|%s|%s|\n' ------------------------------------ -------- ----- ---------------- ----------- -------------- -------------- -----------
run() { # name config ranks pattern threads
  local out
  out=$(timeout "$TIMEOUT" "$NSIM" run -q --brief -c "$cfg/$2.toml" -n "$3" -p "$4" -t "$5" 2>&1)
  local rc=$?
  if [ $rc -eq 124 ]; then
    printf '| %-34s | %6s | %3s | %14s | %9s | %12s | %12s | %9s |\n' "$1" "$3" "$5" "timeout" ">$TIMEOUT" - - -
    return
  fi
  if [ $rc -ne 0 ]; then echo "| $1 | $3 | $5 | error: $out |"; return; fi
  local sim wall ev hops
  sim=$(sed -n 's/.*sim_ms=\([^ ]*\).*/\1/p' <<<"$out")
  wall=$(sed -n 's/.*wall_s=\([^ ]*\).*/\1/p' <<<"$out")
  ev=$(sed -n 's/.*events=\([^ ]*\).*/\1/p' <<<"$out")
  hops=$(sed -n 's/.*hops=\([^ ]*\).*/\1/p' <<<"$out")
  printf '| %-34s | %6s | %3s | %14s | %9s | %12s | %12s | %9.2f |\n' "$1" "$3" "$5" "$sim" "$wall" "$ev" "$hops" \
    "$(awk -v e="$ev" -v w="$wall" 'BEGIN{print (w>0)? e/w/1e6 : 0}')"
}
case $mode in
  quick)
    for t in $THREADS; do
      run "ring 1MiB x1, 16x8x8" torus1k 1024 ring:bytes=1M,loops=1 "$t"
      run "alltoall pairwise 4B, 16x8x8" torus1k 1024 alltoall:bytes=4 "$t"
    done
    for b in 8 2K 64K; do run "BG/L bruck $b" bgl128 128 "bruck:bytes=$b" 1; done
    ;;
  targets)
    run "ring 1MiB x5, 16x8x8" torus1k 1024 ring:bytes=1M,loops=5 1
    run "ring 1MiB x5, 16x16x8" torus2k 2048 ring:bytes=1M,loops=5 1
    run "ring 1MiB x5, 16x16x8" torus2k 2048 ring:bytes=1M,loops=5 2
    run "alltoall pairwise 4B, 16x8x8" torus1k 1024 alltoall:bytes=4 1
    run "alltoall pairwise 4B, 16x8x8" torus1k 1024 alltoall:bytes=4 2
    run "alltoall pairwise 4B, 16x16x16" torus4k 4096 alltoall:bytes=4 1
    run "alltoall pairwise 4B, 16x16x16" torus4k 4096 alltoall:bytes=4 2
    run "ring 1MiB x1 (of 5), 32x16x16" torus8k 8192 ring:bytes=1M,loops=1 1
    run "ring 1MiB x1 (of 5), 32x16x16" torus8k 8192 ring:bytes=1M,loops=1 2
    run "ring 1MiB x5, 32x16x16" torus8k 8192 ring:bytes=1M,loops=5 2
    run "alltoall pairwise 4B, 32x16x16" torus8k 8192 alltoall:bytes=4 2
    for b in 8 128 2K 8K 64K 256K; do run "BG/L bruck $b" bgl128 128 "bruck:bytes=$b" 1; done
    ;;
  speedup)
    for c in "ring 1MiB x5, 16x8x8|torus1k|1024|ring:bytes=1M,loops=5" \
             "ring 1MiB x5, 16x16x8|torus2k|2048|ring:bytes=1M,loops=5" \
             "alltoall pairwise 4B, 16x8x8|torus1k|1024|alltoall:bytes=4" \
             "alltoall pairwise 4B, 16x16x16|torus4k|4096|alltoall:bytes=4"; do
      IFS='|' read -r n c r p <<<"$c"
      for t in 1 2; do run "$n" "$c" "$r" "$p" "$t"; done
    done
    ;;
  paper|all)
    for t in $THREADS; do
      run "ring 1MiB x5, 16x8x8" torus1k 1024 ring:bytes=1M,loops=5 "$t"
      run "ring 1MiB x5, 16x16x8" torus2k 2048 ring:bytes=1M,loops=5 "$t"
      run "ring 1MiB x5, 32x16x16" torus8k 8192 ring:bytes=1M,loops=5 "$t"
      run "alltoall pairwise 4B, 16x8x8" torus1k 1024 alltoall:bytes=4 "$t"
      run "alltoall pairwise 4B, 16x16x16" torus4k 4096 alltoall:bytes=4 "$t"
      run "alltoall pairwise 4B, 32x16x16" torus8k 8192 alltoall:bytes=4 "$t"
    done
    ;;&
  bgl|all)
    for b in 8 32 128 512 2K 8K 32K 64K 128K 256K; do run "BG/L bruck $b" bgl128 128 "bruck:bytes=$b" 1; done
    ;;
esac
