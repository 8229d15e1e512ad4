#!/usr/bin/env bash
# Bound vs unbound isolated reflect (issue 22), with the counters that explain it:
# laplace_xmp_rows (C, block rows: contiguous halos) at 2 processes runs no solver
# iterations and NHALO isolated reflects, each after an xmp barrier; perf stat counts
# context switches, sched_yield and futex calls of the whole job. Per reflect+barrier,
# a waiter that yields or sleeps shows up here; with one core per process neither is
# needed. N interleaved rounds (unbound, bound, unbound, ...), medians printed with
# the load average. Needs perf with the syscalls tracepoints (else only halo1).
#
#   testsuite/bench/apps/bind.sh          (XMPC, N=5, NHALO=20000, LAPLACE_N=2048, BUILD)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tgt=${CARGO_TARGET_DIR:-$root/target}
XMPC=${XMPC:-$tgt/release/xmpc}
N=${N:-5} NHALO=${NHALO:-20000} LAPLACE_N=${LAPLACE_N:-2048}
BUILD=${BUILD:-$tgt/bench-apps-bind}
mkdir -p "$BUILD"
exe=$BUILD/laplace_xmp_rows
"$XMPC" -O2 -DNX="$LAPLACE_N" -DNY="$LAPLACE_N" -o "$exe" "$root/testsuite/apps/laplace/laplace_xmp_rows.c"
ev=context-switches,syscalls:sys_enter_sched_yield,syscalls:sys_enter_futex
perf stat -x, -e "$ev" true > /dev/null 2>&1 || ev=
echo "# bind: $(date -u +%FT%TZ), $(nproc) CPUs, laplace_xmp_rows ${LAPLACE_N}^2, $NHALO reflects each after a barrier, 2 processes"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A V
for ((r = 1; r <= N; r++)); do
    for bind in none core; do
        if [[ -n $ev ]]; then
            out=$(perf stat -x, -e "$ev" mpiexec -bind-to $bind -n 2 "$exe" 0 "$NHALO" 2>&1)
        else
            out=$(mpiexec -bind-to $bind -n 2 "$exe" 0 "$NHALO" 2>&1)
        fi
        V[$bind.h1]+="$(awk '$1=="halo1"{print $2 * 1e6}' <<<"$out") "
        V[$bind.cs]+="$(awk -F, '$3=="context-switches"{print $1 / '"$NHALO"'}' <<<"$out") "
        V[$bind.y]+="$(awk -F, '$3=="syscalls:sys_enter_sched_yield"{print $1 / '"$NHALO"'}' <<<"$out") "
        V[$bind.f]+="$(awk -F, '$3=="syscalls:sys_enter_futex"{print $1 / '"$NHALO"'}' <<<"$out") "
    done
done
med() { tr ' ' '\n' <<<"$1" | awk 'NF' | sort -g | awk '{a[NR]=$1} END{if (NR) printf "%.3f", a[int((NR+1)/2)]; else print "-"}'; }
printf '| %-5s | %16s | %18s | %18s | %18s |\n' bind "reflect us" "ctx switches/refl" "sched_yield/refl" "futex/refl"
printf '|-------|------------------|--------------------|--------------------|--------------------|\n'
for bind in none core; do
    printf '| %-5s | %16s | %18s | %18s | %18s |\n' $bind "$(med "${V[$bind.h1]}")" "$(med "${V[$bind.cs]}")" "$(med "${V[$bind.y]}")" "$(med "${V[$bind.f]}")"
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg) (on a loaded machine, waits fall back to yielding: compare only quiet runs)"
