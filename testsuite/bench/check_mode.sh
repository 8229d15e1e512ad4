#!/usr/bin/env bash
# Cost of the checking mode (xmpc -fcheck=xmp, docs/checking.md) on the XMP Laplace
# (1-D block) and Himeno (1-D) applications of testsuite/apps, in C or Fortran: each
# built with and without the mode, run with mpiexec -n NP, median of RUNS runs.
# Prints one table row per application: time off, time on, on/off, checksums equal.
#
#   testsuite/bench/check_mode.sh c|f
#
# Environment: XMPC (driver; default target/release/xmpc, then target/debug/xmpc),
# NP (2), RUNS (3), FLAGS (-O2), LAPLACE_N (512), LAPLACE_ITER (200), HIMENO_SIZE
# (SMALL), HIMENO_NN (40), BUILD (build dir), MPIEXEC (mpiexec).
set -euo pipefail
lang=${1:?usage: check_mode.sh c|f}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
apps=$root/testsuite/apps
tgt=${CARGO_TARGET_DIR:-$root/target}
if [[ -z "${XMPC:-}" ]]; then
    for c in "$tgt/release/xmpc" "$tgt/debug/xmpc"; do
        [[ -x $c ]] && { XMPC=$c; break; }
    done
fi
: "${XMPC:?set XMPC to the xmpc driver (cargo build --bin xmpc -p xmpc-rt)}"
case $lang in
c) LAP=laplace/laplace_xmp_rows.c HIM=himeno/himeno_xmp_1d.c ;;
f) LAP=laplace/laplace_xmp_1d.F HIM=himeno/himeno_xmp_1d.F90 ;;
*) echo "usage: check_mode.sh c|f" >&2; exit 2 ;;
esac
NP=${NP:-2} RUNS=${RUNS:-3} FLAGS=${FLAGS:--O2} MPIEXEC=${MPIEXEC:-mpiexec}
LAPLACE_N=${LAPLACE_N:-512} LAPLACE_ITER=${LAPLACE_ITER:-200}
HIMENO_SIZE=${HIMENO_SIZE:-SMALL} HIMENO_NN=${HIMENO_NN:-40}
BUILD=${BUILD:-$tgt/bench-check-$lang}
mkdir -p "$BUILD"
log=$BUILD/runs.log
: > "$log"
b() { echo "+ $*" >> "$log"; "$@" >> "$log" 2>&1 || { echo "build failed: $*" >&2; tail -20 "$log" >&2; exit 1; }; }
for mode in off on; do
    chk=$([[ $mode == on ]] && echo -fcheck=xmp || true)
    b "$XMPC" $FLAGS $chk -DNX=$LAPLACE_N -DNY=$LAPLACE_N -o "$BUILD/lap_$mode" "$apps/$LAP"
    b "$XMPC" $FLAGS $chk -DSIZE_$HIMENO_SIZE -I"$apps/himeno" -o "$BUILD/him_$mode" "$apps/$HIM"
done
# run EXE ARGS...: median time of RUNS runs, then the last checksum
run() {
    local ts=() out i sum=
    for ((i = 0; i < RUNS; i++)); do
        out=$($MPIEXEC -n "$NP" "$@")
        echo "== $*" >> "$log"; echo "$out" >> "$log"
        ts+=("$(awk '$1=="time"{print $2}' <<<"$out")")
        sum=$(awk '$1=="checksum"{print $2}' <<<"$out")
    done
    echo "$(printf '%s\n' "${ts[@]}" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}') $sum"
}
echo "# checking mode cost ($lang): $(date -u +%FT%TZ), $(nproc) cores, np=$NP, median of $RUNS, xmpc $XMPC, flags $FLAGS"
echo "# Laplace ${LAPLACE_N}^2 x $LAPLACE_ITER; Himeno $HIMENO_SIZE x $HIMENO_NN; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| %-8s | %-3s | %10s | %10s | %7s | %s |\n' app np "off s" "on s" "on/off" checksum
printf '|%s|\n' "----------|-----|------------|------------|---------|---------"
for app in lap him; do
    name=$([[ $app == lap ]] && echo Laplace || echo Himeno)
    args=$([[ $app == lap ]] && echo "$LAPLACE_ITER" || echo "$HIMENO_NN")
    read -r toff soff <<<"$(run "$BUILD/${app}_off" $args)"
    read -r ton son <<<"$(run "$BUILD/${app}_on" $args)"
    same=$([[ "$soff" == "$son" ]] && echo same || echo "DIFFERENT ($soff / $son)")
    printf '| %-8s | %-3s | %10s | %10s | %7s | %s |\n' "$name" "$NP" "$toff" "$ton" "$(awk -v a="$ton" -v b="$toff" 'BEGIN{printf "%.2f", a / b}')" "$same"
done
