#!/usr/bin/env bash
# BSIM's two back ends on the same skeleton: host wall time and predicted time.
#
#   testsuite/bench/bsim/backends.sh [NP...]     (default: 16 64)
#
# The random ring (ring.c: 1 MiB x 5, rendezvous) and the 2-D halo (halo.c:
# 100 iterations, 64 KiB, an Allreduce every 10), skeletonized as run.sh does, linked once
# with mpicc and libxmpc_bsim_mpi.a, then run as threads of one process
# (BSIM_BACKEND=threads) and as NP MPI processes (mpiexec -n NP, BSIM_BACKEND=mpi).
# The predicted times must be identical; the wall times are the median of REPS runs.
# On a machine with fewer cores than NP the mpi back end is oversubscribed (MPICH
# busy-polls), so expect it to be much slower here: it exists for runs over many hosts.
#
# Environment: REPS=3, MPIEXEC=mpiexec, MPICC=mpicc.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
REPS=${REPS:-3}
MPIEXEC=${MPIEXEC:-mpiexec}
MPICC=${MPICC:-mpicc}
NPS=("$@")
[ ${#NPS[@]} -eq 0 ] && NPS=(16 64)
T="${CARGO_TARGET_DIR:-$root/target}/release"
(cd "$root" && cargo build --release -q -p xmpc-bsim) || exit 1
[ -f "$T/libxmpc_bsim_mpi.a" ] || { echo "libxmpc_bsim_mpi.a not built (no mpicc?)"; exit 1; }
W=$(mktemp -d /tmp/bsim-backends.XXXXXX)
trap 'rm -rf "$W"' EXIT

for n in ring halo; do
  sed -e 's/\bMPI_/LMPI_/g' -e 's/<mpi\.h>/<lmpi.h>/' -e 's/int main(/int bsim_main(/' "$here/$n.c" >"$W/$n.skel.c"
  "$MPICC" -O2 -I"$root/runtime/tools/bsim/include" -D'BUF_BYTES(n)=1' -D'BUF_OFF(x)=0' -D'ADD_TIME(t)=BSIM_Add_time(t)' \
    "$W/$n.skel.c" -o "$W/$n.bsim" "$T/libxmpc_bsim_mpi.a" "$T/libxmpc_bsim.a" -lpthread -ldl -lm -lgcc_s -lrt || exit 1
done

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# run BACKEND NP EXE ARGS... -> "wall predicted"
run() {
  local be=$1 np=$2; shift 2
  local t0 t1 out
  t0=$(date +%s.%N)
  if [ "$be" = mpi ]; then
    out=$(BSIM_BACKEND=mpi BSIM_NP=$np BSIM_PLATFORM="$here/flat.toml" BSIM_PROGRESS=0 "$MPIEXEC" -n "$np" "$@")
  else
    out=$(BSIM_BACKEND=threads BSIM_NP=$np BSIM_PLATFORM="$here/flat.toml" BSIM_PROGRESS=0 "$@")
  fi
  t1=$(date +%s.%N)
  echo "$(echo "$t1 - $t0" | bc) $(echo "$out" | awk '/^predicted time:/ {print $3}')"
}

echo "# load before: $(cat /proc/loadavg)"
echo "| case | ranks | threads wall [s] | mpi wall [s] | threads predicted | mpi predicted |"
echo "|---|---:|---:|---:|---:|---:|"
for np in "${NPS[@]}"; do
  for c in "ring 1048576 5" "halo 100 1e-4 65536"; do
    set -- $c
    name=$1; shift
    declare -a tw=() mw=()
    for ((k = 0; k < REPS; k++)); do
      read -r w pt < <(run threads "$np" "$W/$name.bsim" "$@"); tw+=("$w")
      read -r w pm < <(run mpi "$np" "$W/$name.bsim" "$@"); mw+=("$w")
    done
    echo "| $name $* | $np | $(printf '%s\n' "${tw[@]}" | median) | $(printf '%s\n' "${mw[@]}" | median) | $pt | $pm |"
  done
done
echo "# load after: $(cat /proc/loadavg)"
