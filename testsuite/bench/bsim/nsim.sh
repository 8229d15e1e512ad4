#!/usr/bin/env bash
# BSIM with the NSIM network model: host time of an alltoall skeleton on a torus
# (one congested phase: every rank sends to every other) and the predicted
# times under NSIM and under the equivalent l + s/w platform.
#
#   testsuite/bench/bsim/nsim.sh [DIMS] [BYTES]     (default: "4, 4, 4" 2048)
#
# Builds libxmpc_bsim in release mode; REPS=3 runs, median host time; prints the
# load average before and after (the machine is shared: repeat when it is busy).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
DIMS=${1:-4, 4, 4}
BYTES=${2:-2048}
REPS=${REPS:-3}
T="${CARGO_TARGET_DIR:-$root/target}/release"
(cd "$root" && cargo build -q --release -p xmpc-bsim)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
np=$(python3 -c "import math; print(math.prod([$DIMS]))")
printf '[topology]\nkind = "torus"\ndims = [%s]\n[link]\nbandwidth = "1 GB/s"\nlatency = "100ns"\n[router]\ndelay = "50ns"\n' "$DIMS" > "$w/torus.toml"
printf '[network]\nmodel = "nsim"\nconfig = "torus.toml"\n[collectives]\nmode = "p2p"\n' > "$w/nsim.toml"
printf '[network]\nlatency = 2e-7\nbandwidth = 1e9\n[collectives]\nmode = "p2p"\n' > "$w/ana.toml"
cc -O2 -I"$root/runtime/tools/bsim/include" "$root/runtime/tools/bsim/tests/programs/netpat.c" -o "$w/netpat" \
   "$T/libxmpc_bsim_main.a" "$T/libxmpc_bsim.a" -lpthread -ldl -lm -lgcc_s -lrt
echo "load before: $(cat /proc/loadavg)"
echo "alltoall of $BYTES B on a [$DIMS] torus, $np ranks"
for p in ana nsim; do
    times=()
    for _ in $(seq "$REPS"); do
        s=$(date +%s.%N)
        pred=$(BSIM_NP=$np BSIM_PLATFORM="$w/$p.toml" BSIM_PROGRESS=0 "$w/netpat" alltoall "$BYTES" 1 | grep predicted)
        times+=("$(python3 -c "print($(date +%s.%N) - $s)")")
    done
    med=$(printf '%s\n' "${times[@]}" | sort -g | sed -n "$(( (REPS + 1) / 2 ))p")
    printf '%-5s %s   host median %.2f s\n' "$p" "$pred" "$med"
done
echo "load after: $(cat /proc/loadavg)"
