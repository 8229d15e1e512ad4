#!/usr/bin/env bash
# BSIM at scale: host time and peak memory of two skeletons as the rank count grows.
#
#   testsuite/bench/bsim/scale.sh [ring|alltoall|cgstyle|all]     (default: all)
#
# ring:     every rank exchanges 8 B with both neighbours (r-1, r+1), 10 rounds
#           (Irecv x2, Isend x2, Waitall) at 16K, 128K and 1M ranks as contexts
#           (the default back end), and at 16K ranks as threads for comparison;
# alltoall: 10 LMPI_Alltoall of 8 B per pair at 1K and 8K ranks (contexts);
# cgstyle: a CG-like skeleton, 10 iterations of a compute block (BSIM_Add_time
#           10 us), a halo exchange of 8 KiB with both neighbours, two Allreduce
#           of 8 B (dot products) and, every 5th iteration, a Bcast of 8 B and a
#           Barrier, at 16K, 128K and 1M ranks (contexts).
# Prints ranks, back end, predicted time, host wall time, host time per rank,
# peak RSS (from /usr/bin/time -v), RSS per rank and the stack pages a context
# touched (BSIM_STACK_STATS). A run that fails prints its exit status and the
# last line of its stderr instead.
#
# Memory: runs of 512K ranks or more need 18 GiB available (`free -g`), else
# they are skipped with a message. Guard pages: each context stack gets one when
# vm.max_map_count allows 2 mappings per rank; run as root, the script raises
# the limit for the big runs and restores it on exit (docs/bsim.md, Back ends).
#
# Environment: RING_NP / A2A_NP / CG_NP / THREADS_NP override the rank lists;
# BSIM_STACK_KB (default 64).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
what=${1:-all}
RING_NP=${RING_NP:-"16384 131072 1048576"}
THREADS_NP=${THREADS_NP:-"16384"}
A2A_NP=${A2A_NP:-"1024 8192"}
CG_NP=${CG_NP:-"16384 131072 1048576"}
export BSIM_STACK_KB=${BSIM_STACK_KB:-64}
T="${CARGO_TARGET_DIR:-$root/target}/release"
(cd "$root" && cargo build --release -q -p xmpc-bsim) || exit 1
W=$(mktemp -d /tmp/bsim-scale.XXXXXX)
MAPS0=$(cat /proc/sys/vm/max_map_count)
restore() {
  rm -rf "$W"
  if [ "$(cat /proc/sys/vm/max_map_count)" != "$MAPS0" ]; then
    sysctl -q -w vm.max_map_count="$MAPS0" && echo "vm.max_map_count restored to $MAPS0"
  fi
}
trap restore EXIT

cat >"$W/ring.c" <<'C'
#include <lmpi.h>
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r, n;
    char sb[16], rb[16];
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm_size(LMPI_COMM_WORLD, &n);
    int left = (r + n - 1) % n, right = (r + 1) % n;
    for (int i = 0; i < 10; i++) {
        LMPI_Request q[4];
        LMPI_Irecv(rb, 8, LMPI_BYTE, left, 0, LMPI_COMM_WORLD, &q[0]);
        LMPI_Irecv(rb + 8, 8, LMPI_BYTE, right, 1, LMPI_COMM_WORLD, &q[1]);
        LMPI_Isend(sb, 8, LMPI_BYTE, right, 0, LMPI_COMM_WORLD, &q[2]);
        LMPI_Isend(sb + 8, 8, LMPI_BYTE, left, 1, LMPI_COMM_WORLD, &q[3]);
        LMPI_Waitall(4, q, LMPI_STATUSES_IGNORE);
    }
    LMPI_Finalize();
    return 0;
}
C
cat >"$W/alltoall.c" <<'C'
#include <lmpi.h>
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    char b[8];
    for (int i = 0; i < 10; i++) {
        BSIM_Add_time(1e-6);
        /* no payload: the buffers are not touched */
        LMPI_Alltoall(b, 8, LMPI_BYTE, b, 8, LMPI_BYTE, LMPI_COMM_WORLD);
    }
    LMPI_Finalize();
    return 0;
}
C
cat >"$W/cgstyle.c" <<'C'
#include <lmpi.h>
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r, n;
    static char sb[2][8192], rb[2][8192];
    double dot = 1, sum;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm_size(LMPI_COMM_WORLD, &n);
    int left = (r + n - 1) % n, right = (r + 1) % n;
    for (int i = 0; i < 10; i++) {
        BSIM_Add_time(1e-5); /* the sparse mat-vec */
        LMPI_Request q[4];
        LMPI_Irecv(rb[0], 8192, LMPI_BYTE, left, 0, LMPI_COMM_WORLD, &q[0]);
        LMPI_Irecv(rb[1], 8192, LMPI_BYTE, right, 1, LMPI_COMM_WORLD, &q[1]);
        LMPI_Isend(sb[0], 8192, LMPI_BYTE, right, 0, LMPI_COMM_WORLD, &q[2]);
        LMPI_Isend(sb[1], 8192, LMPI_BYTE, left, 1, LMPI_COMM_WORLD, &q[3]);
        LMPI_Waitall(4, q, LMPI_STATUSES_IGNORE);
        LMPI_Allreduce(&dot, &sum, 1, LMPI_DOUBLE, LMPI_SUM, LMPI_COMM_WORLD);
        BSIM_Add_time(2e-6);
        LMPI_Allreduce(&dot, &sum, 1, LMPI_DOUBLE, LMPI_SUM, LMPI_COMM_WORLD);
        if (i % 5 == 4) {
            LMPI_Bcast(&sum, 1, LMPI_DOUBLE, 0, LMPI_COMM_WORLD);
            LMPI_Barrier(LMPI_COMM_WORLD);
        }
    }
    LMPI_Finalize();
    return 0;
}
C
for p in ring alltoall cgstyle; do
  cc -O2 -I"$root/runtime/tools/bsim/include" "$W/$p.c" -o "$W/$p" \
    "$T/libxmpc_bsim_main.a" "$T/libxmpc_bsim.a" -lpthread -ldl -lm -lgcc_s -lrt || exit 1
done

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)   stack ${BSIM_STACK_KB} KiB   $(nproc) cores"
printf '%-9s %9s %-8s %16s %9s %13s %9s %8s %9s\n' skeleton ranks backend predicted host_s host_us/rank peak_MiB KB/rank stack_KiB
run() {
  local p=$1 np=$2 be=$3
  if [ "$np" -ge 524288 ]; then
    local avail
    avail=$(free -g | awk '/^Mem:/ {print $7}')
    if [ "$avail" -lt 18 ]; then
      printf '%-9s %9s %-8s  skipped: %s GiB available, 18 needed (free -g)\n' "$p" "$np" "$be" "$avail"
      return
    fi
  fi
  local need=$((2 * np + 65536))
  if [ "$be" = contexts ] && [ "$(cat /proc/sys/vm/max_map_count)" -lt "$need" ] && [ "$(id -u)" = 0 ]; then
    sysctl -q -w vm.max_map_count="$need"
  fi
  BSIM_BACKEND=$be BSIM_NP=$np BSIM_PROGRESS=0 BSIM_STACK_STATS=1 /usr/bin/time -v "$W/$p" >"$W/out" 2>"$W/err"
  local rc=$?
  if [ $rc -ne 0 ]; then
    printf '%-9s %9s %-8s  failed (status %s): %s\n' "$p" "$np" "$be" "$rc" \
      "$(grep -v '^\s' "$W/err" | grep -v 'Command exited' | tail -1)"
    return
  fi
  grep '^bsim: note' "$W/err"
  local pred wall rss st
  pred=$(sed -n 's/^predicted time: \([^ ]*\) s.*/\1/p' "$W/out")
  wall=$(sed -n 's/^host time: \([^ ]*\) s.*/\1/p' "$W/out")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$W/err")
  st=$(sed -n 's/^stack: \([0-9]*\) KiB per rank at most.*/\1/p' "$W/out")
  awk -v p="$p" -v n="$np" -v be="$be" -v pr="$pred" -v w="$wall" -v r="$rss" -v st="${st:--}" 'BEGIN {
    printf "%-9s %9d %-8s %16s %9.2f %13.2f %9.1f %8.2f %9s\n", p, n, be, pr, w, w * 1e6 / n, r / 1024, r * 1.024 / n, st }'
}
if [ "$what" = all ] || [ "$what" = ring ]; then
  for np in $THREADS_NP; do run ring "$np" threads; done
  for np in $RING_NP; do run ring "$np" contexts; done
fi
if [ "$what" = all ] || [ "$what" = alltoall ]; then
  for np in $A2A_NP; do run alltoall "$np" contexts; done
fi
if [ "$what" = all ] || [ "$what" = cgstyle ]; then
  for np in $CG_NP; do run cgstyle "$np" contexts; done
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
