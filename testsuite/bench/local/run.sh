#!/bin/sh
# Coindexed put/get (xmpc local view) vs hand-written MPI one-sided, 8 B and 1 MiB,
# 2 processes. Builds xmpc and its runtime (PROFILE=release by default), prints the
# table of testsuite/bench/local/coarray_putget.c with the load average around it.
# Arguments: iterations for 8 B (20000) and for 1 MiB (200).
set -e
here=$(cd "$(dirname "$0")/../../.." && pwd)
profile=${PROFILE:-release}
flag=$([ "$profile" = release ] && echo --release || true)
(cd "$here" && cargo build -q $flag -p xmpc -p xmpc-rt)
exe=${TMPDIR:-/tmp}/xmpc-coarray-bench-$$
"$here/target/$profile/xmpc" -O2 "$here/testsuite/bench/local/coarray_putget.c" -o "$exe"
echo "load before: $(cat /proc/loadavg)"
mpiexec -n 2 "$exe" "$@"
echo "load after: $(cat /proc/loadavg)"
rm -f "$exe"
