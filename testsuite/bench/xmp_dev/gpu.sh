#!/usr/bin/env bash
# XMP-dev on a machine with an NVIDIA GPU: the thesis' N-body and matrix product and a
# 2-D Jacobi, each run four ways on one process (the whole node):
#   gpu-only   XMPC_WEIGHT=0              (every iteration on the GPU)
#   cpu-only   XMPC_DEVICE=none           (every iteration on the CPU workers)
#   paper      built with -DPAPER_RULE, XMPC_WEIGHT=0.2 (the thesis' ±0.01 rule, list 4.6)
#   auto       XMPC_WEIGHT=auto           (the runtime's rule, docs/xmp-dev.md)
# and prints a table: the first device loop's step time (max of the CPU and GPU
# parts) at the last step, the weight it ended with, its imbalance, the first step whose
# |t_cpu - t_gpu|/max is <= 5 %, and the program's wall time. Checksums are compared
# with the CPU-only run (GPU arithmetic may differ in the last bits: FMA contraction).
#
# Usage (from the repository root, on the GPU machine):
#   testsuite/bench/xmp_dev/gpu.sh [NBODY_N] [MATMUL_N] [JACOBI_N] [STEPS]
# Needs: cargo, mpicc/mpiexec, nvcc (PATH, XMPC_NVCC, or ~/.cache/xmpc-cuda from the
# README's set-up). Environment: XMP_STARPU_NCPU / XMP_STARPU_NCUDA as usual.
set -euo pipefail
cd "$(dirname "$0")/../../.."
NB=${1:-131072}; MM=${2:-4096}; JA=${3:-8192}; STEPS=${4:-20}
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || echo "gpu.sh: no nvidia-smi (is there a GPU?)"
command -v mpicc >/dev/null || { echo "gpu.sh: mpicc not found: install MPICH (or carry the Debian .debs, see shared notes)"; exit 1; }
cargo build --release -p xmpc -p xmpc-rt -q
X=target/release/xmpc
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)   cores: $(nproc)"

build() { # prog defs... -> exe
  local p=$1; shift; local exe="$W/$p$(echo "$*" | tr -c 'a-zA-Z0-9' _)"
  "$X" "testsuite/xmp_dev/$p.c" -O3 "$@" -o "$exe" >&2
  echo "$exe"
}
summary() { # log file, loop line -> "step_time w first_balanced"
  awk -v L="$2" '
    index($0, ".c:" L " step") {
      n++; match($0, /: w=[0-9.]+/); w = substr($0, RSTART + 4, RLENGTH - 4)
      c=$0; sub(/.* cpu [0-9]+ it /, "", c); sub(/ s.*/, "", c)
      g=$0; sub(/.* gpu [0-9]+ it /, "", g); sub(/ s.*/, "", g)
      im=$0; sub(/.*imbalance /, "", im); sub(/,.*/, "", im)
      t = (c > g ? c : g)
      if (first == "" && im + 0 <= 0.05) first = n
    }
    END { printf "%.4f %s %s %s", t, w, (first == "" ? "-" : first), im }' "$1"
}
printf "%-8s %-9s %10s %8s %9s %10s %9s  %s\n" program mode "step s" "w" "imbal" "balanced@" "wall s" checksum
for p in nbody matmul jacobi; do
  case $p in nbody) D="-DN=$NB -DSTEPS=$STEPS";; matmul) D="-DN=$MM -DREPS=$STEPS";; jacobi) D="-DN=$JA -DSTEPS=$STEPS";; esac
  line=$(grep -n '#pragma xmp device loop' "testsuite/xmp_dev/$p.c" | head -1 | cut -d: -f1)
  exe=$(build $p $D); exep=$(build $p $D -DPAPER_RULE)
  ref=""
  for mode in cpu-only gpu-only paper auto; do
    case $mode in
      gpu-only) envs="XMPC_WEIGHT=0"; e=$exe;;
      cpu-only) envs="XMPC_DEVICE=none"; e=$exe;;
      paper) envs="XMPC_WEIGHT=0.2"; e=$exep;;
      auto) envs="XMPC_WEIGHT=auto"; e=$exe;;
    esac
    t0=$(date +%s.%N)
    out=$(env $envs XMPC_DEV_LOG=1 mpiexec -n 1 "$e" 2>"$W/log")
    t1=$(date +%s.%N)
    read -r st w first im <<<"$(summary "$W/log" "$line")"
    sum=${out##* }; [ -z "$ref" ] && ref=$sum
    same=$([ "$sum" = "$ref" ] && echo "=" || echo "differs from cpu-only")
    printf "%-8s %-9s %10s %8s %9s %10s %9.2f  %s %s\n" $p $mode "$st" "$w" "$im" "$first" "$(echo "$t1 - $t0" | bc)" "$sum" "$same"
  done
done
