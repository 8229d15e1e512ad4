#!/usr/bin/env bash
# Per-call cost of a procedure with local aligned arrays, without and with
# `save_desc` (Fortran): prints a table of microseconds per call.
#   testsuite/bench/save_desc/run.sh [NCALL] [N...]
# Uses $XMPC (default: target/release/xmpc, built if missing), mpiexec, np=1,2,4.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
ncall=${1:-2000}
shift || true
sizes=${*:-"1000 100000"}
xmpc=${XMPC:-$root/target/release/xmpc}
if [ ! -x "$xmpc" ]; then
  (cd "$root" && cargo build --release -p xmpc -p xmpc-rt >&2)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-8s %-4s %12s %12s %16s %8s\n' N np plain_us save_desc_us save+save_desc_us ratio
for n in $sizes; do
  "$xmpc" -DN="$n" -I "$here" "$here/calls.F90" -o "$tmp/calls_$n" 2>/dev/null
  for np in 1 2 4; do
    out=$(mpiexec -n "$np" "$tmp/calls_$n" "$ncall")
    if grep -q ERROR <<<"$out"; then echo "$out" >&2; exit 1; fi
    line=$(grep 'us/call' <<<"$out")
    read -r p s a <<<"$(sed 's/.*://' <<<"$line")"
    printf '%-8s %-4s %12s %12s %16s %8.2f\n' "$n" "$np" "$p" "$s" "$a" "$(echo "$s / $p" | bc -l)"
  done
done
