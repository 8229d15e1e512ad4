#!/bin/sh
# Builds the runtime (release) and the halo benchmark, runs it 3x on 2 processes
# with the default transport (on-node halos through shared memory) and 3x with
# XMPC_SHM_HALO=0 (MPI messages only), then prints the medians of the run medians:
# contiguous (row) and strided (column) reflect, their ratio, and the hand-written
# MPI_Sendrecv figures. RUNS=n changes the number of runs per setting.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$here/../../../target}
cargo build -q -p xmpc-rt --release
exe=${TMPDIR:-/tmp}/xmpc-halo-$$
${MPICC:-mpicc} -O2 -o "$exe" "$here/bench/halo.c" -I "$here/include" \
  "$CARGO_TARGET_DIR/release/libxmpc_rt.a" -lgcc_s -lutil -lrt -lpthread -lm -ldl
out=${TMPDIR:-/tmp}/xmpc-halo-$$.txt
: >"$out"
echo "load before: $(cat /proc/loadavg)"
for shm in 1 0; do
  for i in $(seq "${RUNS:-3}"); do
    r=$(XMPC_SHM_HALO=$shm mpiexec -n "${NP:-2}" "$exe")
    echo "XMPC_SHM_HALO=$shm: $(echo "$r" | grep '^halo')"
    echo "$r" | sed -n "s/^RESULT/$shm/p" >>"$out"
  done
done
echo "load after: $(cat /proc/loadavg)"
# median of a column of numbers
med() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for shm in 1 0; do
  row=$(awk -v s=$shm '$1 == s {print $2}' "$out" | med)
  col=$(awk -v s=$shm '$1 == s {print $3}' "$out" | med)
  mrow=$(awk -v s=$shm '$1 == s {print $4}' "$out" | med)
  mcol=$(awk -v s=$shm '$1 == s {print $5}' "$out" | med)
  label=$([ $shm = 1 ] && echo "shared memory (default)" || echo "MPI only (XMPC_SHM_HALO=0)")
  printf '%s, median of %s runs (us): contiguous reflect %s  strided reflect %s  strided/contiguous %.2f  hand-written MPI_Sendrecv rows %s  columns(vector) %s\n' \
    "$label" "${RUNS:-3}" "$row" "$col" "$(echo "$col $row" | awk '{print $1 / $2}')" "$mrow" "$mcol"
done
rm -f "$exe" "$out"
