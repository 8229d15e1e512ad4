#!/usr/bin/env bash
# BSIM against SimGrid SMPI on the same programs and the same flat platform.
#
#   testsuite/bench/bsim/run.sh [parity|speed|big|all]   (default: all)
#
#   parity  ping-pong 1 B .. 16 MiB (2 ranks), the random ring (1 MiB x 5) at
#           256 and 1024 ranks and the all-to-all (8 B and 64 KiB per pair) at 64
#           and 256 ranks: predicted times of both and the difference
#   speed   host wall time of the 1024-rank ring, the 1024-rank all-to-all (8 B per
#           pair, 2 rounds) and a 1024-rank 2-D halo skeleton, SMPI vs BSIM (median
#           of REPS runs)
#   big     the halo skeleton at 16,384 ranks under BSIM: wall time and peak RSS
#
# The programs (pingpong.c, ring.c, alltoall.c, halo.c) are plain MPI. SMPI compiles them with
# smpicc; the BSIM side is the same file with MPI_ renamed LMPI_, main renamed
# bsim_main and the buffers cut to one byte, i.e. what the skeletonizer produces.
# flat.toml is exported with `xmpc bsim platform --export-simgrid`, which also gives
# the smpirun --cfg flags (CM02, TCP-gamma 0, no cross traffic, no computation
# benchmarking). SMPI is only a measuring peer here: it is never needed otherwise.
#
# Compute blocks are smpi_execute_flops(t * 1e9) under SMPI (hosts run 1 Gflop/s;
# smpi_execute is a no-op with simulate-computation off) and BSIM_Add_time(t) here.
#
# Environment: REPS=3, SMPIRUN=smpirun, SMPICC=smpicc.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
mode=${1:-all}
REPS=${REPS:-3}
SMPIRUN=${SMPIRUN:-smpirun}
SMPICC=${SMPICC:-smpicc}
T="${CARGO_TARGET_DIR:-$root/target}/release"
(cd "$root" && cargo build --release -q -p xmpc -p xmpc-bsim) || exit 1
XMPC="$T/xmpc"
W=$(mktemp -d /tmp/bsim-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
have_smpi=1
command -v "$SMPIRUN" >/dev/null 2>&1 || { have_smpi=0; echo "# smpirun not found: BSIM columns only"; }

"$XMPC" bsim platform "$here/flat.toml" --export-simgrid "$W/flat.xml" --np 16384 --hostfile "$W/hosts" >"$W/cfg" 2>/dev/null || exit 1
mapfile -t CFG <"$W/cfg"

build() { # name
  local n=$1
  if [ $have_smpi = 1 ] && [ ! -x "$W/$n.smpi" ]; then
    "$SMPICC" -O2 -D'BUF_BYTES(n)=((n)>0?(n):1)' -D'BUF_OFF(x)=(x)' -D'ADD_TIME(t)=smpi_execute_flops((t) * 1e9)' \
      "$here/$n.c" -o "$W/$n.smpi" 2>"$W/$n.smpicc.log" || { cat "$W/$n.smpicc.log"; exit 1; }
  fi
  if [ ! -x "$W/$n.bsim" ]; then
    sed -e 's/\bMPI_/LMPI_/g' -e 's/<mpi\.h>/<lmpi.h>/' -e 's/int main(/int bsim_main(/' "$here/$n.c" >"$W/$n.skel.c"
    cc -O2 -I"$root/runtime/tools/bsim/include" -D'BUF_BYTES(n)=1' -D'BUF_OFF(x)=0' -D'ADD_TIME(t)=BSIM_Add_time(t)' \
      "$W/$n.skel.c" -o "$W/$n.bsim" "$T/libxmpc_bsim_main.a" "$T/libxmpc_bsim.a" -lpthread -ldl -lm -lgcc_s -lrt || exit 1
  fi
}

smpi() { # np prog args... -> prints "time" line value; wall seconds in $W/wall
  local np=$1 prog=$2
  shift 2
  local t0 t1
  t0=$(date +%s.%N)
  "$SMPIRUN" -np "$np" -platform "$W/flat.xml" -hostfile "$W/hosts" "${CFG[@]}" \
    --log=root.thres:critical "$W/$prog.smpi" "$@" 2>"$W/smpi.err" | awk '/^time/ && $2 > m {m = $2} END {print m}'
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc >"$W/wall"
}

bsim() { # np prog args...
  local np=$1 prog=$2
  shift 2
  local t0 t1
  t0=$(date +%s.%N)
  BSIM_QUIET=1 BSIM_PROGRESS=0 "$XMPC" bsim run "$W/$prog.bsim" -np "$np" --platform "$here/flat.toml" --out "$W/out" -- "$@" 2>"$W/bsim.err" | awk '/^time/ && $2 > m {m = $2} END {print m}'
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc >"$W/wall"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

diffpct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == "" || b == 0) print "n/a"; else printf "%+.4f%%", (a - b) / b * 100 }'; }

echo "# BSIM vs SMPI ($(date -u +%FT%TZ), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg))"
echo "# smpirun flags: ${CFG[*]}"

if [ "$mode" = parity ] || [ "$mode" = all ]; then
  build pingpong
  build ring
  echo
  echo "| case | ranks | SMPI [s] | BSIM [s] | BSIM - SMPI |"
  echo "|---|---:|---:|---:|---:|"
  for b in 1 16 256 4096 65535 65536 1048576 16777216; do
    s=""; [ $have_smpi = 1 ] && s=$(smpi 2 pingpong $b 10)
    m=$(bsim 2 pingpong $b 10)
    echo "| ping-pong $b B x 10 | 2 | $s | $m | $(diffpct "$m" "$s") |"
  done
  for np in 256 1024; do
    s=""; [ $have_smpi = 1 ] && s=$(smpi $np ring 1048576 5)
    m=$(bsim $np ring 1048576 5)
    echo "| random ring 1 MiB x 5 | $np | $s | $m | $(diffpct "$m" "$s") |"
  done
  build alltoall
  for np in 64 256; do
    for b in 8 65536; do
      s=""; [ $have_smpi = 1 ] && s=$(smpi $np alltoall $b 2)
      m=$(bsim $np alltoall $b 2)
      echo "| all-to-all $b B x 2 | $np | $s | $m | $(diffpct "$m" "$s") |"
    done
  done
fi

if [ "$mode" = speed ] || [ "$mode" = all ]; then
  build ring
  build alltoall
  build halo
  echo
  echo "| case | ranks | SMPI wall [s] (median of $REPS) | BSIM wall [s] | speed-up | SMPI predicted | BSIM predicted |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  for c in "ring 1024 1048576 5" "alltoall 1024 8 2" "halo 1024 100 1e-4 65536"; do
    set -- $c
    prog=$1 np=$2
    shift 2
    sw=(); bw=(); sp=""; bp=""
    for _ in $(seq "$REPS"); do
      if [ $have_smpi = 1 ]; then sp=$(smpi "$np" "$prog" "$@"); sw+=("$(cat "$W/wall")"); fi
      bp=$(bsim "$np" "$prog" "$@"); bw+=("$(cat "$W/wall")")
    done
    ms=""; [ $have_smpi = 1 ] && ms=$(printf '%s\n' "${sw[@]}" | median)
    mb=$(printf '%s\n' "${bw[@]}" | median)
    su=$(awk -v a="$ms" -v b="$mb" 'BEGIN { if (a == "") print "n/a"; else printf "%.1fx", a / b }')
    echo "| $prog $* | $np | $ms | $mb | $su | $sp | $bp |"
  done
fi

if [ "$mode" = big ] || [ "$mode" = all ]; then
  build halo
  echo
  echo "| case | ranks | BSIM wall [s] | peak RSS [MiB] | predicted [s] |"
  echo "|---|---:|---:|---:|---:|"
  for np in 4096 16384; do
    # the skeleton itself (what `xmpc bsim run` starts), so that RSS is its own
    /usr/bin/time -f '%e %M' -o "$W/rss" env BSIM_NP=$np BSIM_PLATFORM="$here/flat.toml" BSIM_QUIET=1 \
      BSIM_PROGRESS=0 BSIM_STACK_KB=64 "$W/halo.bsim" 20 1e-4 65536 >"$W/big.out" 2>"$W/bsim.err"
    read -r wall kb <"$W/rss"
    pred=$(awk '/^time/ && $2 > m {m = $2} END {print m}' "$W/big.out")
    echo "| halo 20 it 64 KiB | $np | $wall | $((kb / 1024)) | $pred |"
  done
fi
