#!/usr/bin/env bash
# Bound vs unbound isolated reflect (issue 22), over many short launches, with the
# counters that explain it. The Laplace programs at 2 processes run no solver iterations
# and NHALO isolated reflects, each after a barrier, and print the median (halo1):
#   c contig   laplace_xmp_rows.c (block rows: contiguous 16 KiB halos)
#   c strided  laplace_xmp_2d.c -DPX=2 (block columns: strided halos)
#   f contig   laplace_xmp_1d.F (Fortran, block columns: contiguous)
#   f strided  laplace_xmp_2d.F90 -DPX=2 (Fortran, block rows: strided)
# and the expert MPI versions (laplace_mpi.c / .f90, PX 1 or 2) as the reference.
#
# Why many launches: on this host the on-node exchange is bimodal *per launch* (about
# 3 us or about 8 us for the 16 KiB one; a launch stays in one mode, the next may not,
# both bindings and MPI alike; docs/performance.md). A handful of launches per binding,
# as table.sh gives, is a coin toss between modes, so this runs L launches of each
# (reflect, version) unbound and bound, each pair back to back (order alternating),
# and stats.py reflect judges: the paired ratio bound/unbound over all pairs and over
# the pairs whose two launches fell in the same mode (the binding's own effect), the
# share of slow-mode launches per binding (a binding that makes the slow mode likelier
# shows there; Fisher's exact test), and per binding the fast- and slow-mode medians.
# perf stat counts context switches, sched_yield and futex calls of each launch's whole
# job, per reflect (a waiter that yields or sleeps shows up; needs perf with the
# syscalls tracepoints, else the columns are empty).
#
#   testsuite/bench/apps/bind.sh
# Environment: XMPC (driver; default target/release/xmpc), L (launches per binding, 30),
# NHALO (reflects per launch, 5000), LAPLACE_N (2048), REFLECTS ("c.contig c.strided
# f.contig f.strided"), VERSIONS ("xmp mpi"), BUILD, MPIEXEC, MPICC, MPIFC, CFLAGS (-O2),
# FFLAGS (-O2). Raw launches: $BUILD/launches.tsv. Exit status 1 when a launch fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
apps=$root/testsuite/apps/laplace
tgt=${CARGO_TARGET_DIR:-$root/target}
XMPC=${XMPC:-$tgt/release/xmpc}
[[ -x $XMPC ]] || { echo "no xmpc driver at $XMPC (cargo build --release -p xmpc -p xmpc-rt, or set XMPC)" >&2; exit 2; }
L=${L:-30} NHALO=${NHALO:-5000} LAPLACE_N=${LAPLACE_N:-2048}
REFLECTS=${REFLECTS:-c.contig c.strided f.contig f.strided}
VERSIONS=${VERSIONS:-xmp mpi}
MPIEXEC=${MPIEXEC:-mpiexec} MPICC=${MPICC:-mpicc} MPIFC=${MPIFC:-mpif90}
CFLAGS=${CFLAGS:--O2} FFLAGS=${FFLAGS:--O2}
BUILD=${BUILD:-$tgt/bench-apps-bind}
mkdir -p "$BUILD"
log=$BUILD/build.log
: > "$log"
b() { echo "+ $*" >> "$log"; "$@" >> "$log" 2>&1 || { echo "build failed: $*" >&2; tail -20 "$log" >&2; exit 1; }; }
N2="-DNX=$LAPLACE_N -DNY=$LAPLACE_N"
declare -A CMD BUILT
for r in $REFLECTS; do
    lang=${r%.*} dec=${r#*.}
    px=1; [[ $dec == strided ]] && px=2
    case $r in
        c.contig) src=laplace_xmp_rows.c ;;
        c.strided) src=laplace_xmp_2d.c ;;
        f.contig) src=laplace_xmp_1d.F ;;
        f.strided) src=laplace_xmp_2d.F90 ;;
        *) echo "unknown reflect '$r' (c.contig c.strided f.contig f.strided)" >&2; exit 2 ;;
    esac
    if [[ $lang == c ]]; then fl=$CFLAGS mpicc=$MPICC msrc=laplace_mpi.c; else fl=$FFLAGS mpicc=$MPIFC msrc=laplace_mpi.f90; fi
    for v in $VERSIONS; do
        exe=$BUILD/$r.$v
        if [[ $v == xmp ]]; then
            # shellcheck disable=SC2086
            b "$XMPC" $fl $N2 -DPX=$px -o "$exe" "$apps/$src"
            CMD[$r.$v]="$exe 0 $NHALO"
        else
            # shellcheck disable=SC2086
            [[ -n ${BUILT[$lang]:-} ]] || b "$mpicc" $fl -o "$BUILD/$lang.mpi" "$apps/$msrc"
            BUILT[$lang]=1
            CMD[$r.$v]="$BUILD/$lang.mpi $LAPLACE_N $LAPLACE_N 0 $px $NHALO"
        fi
    done
done
ev=context-switches,syscalls:sys_enter_sched_yield,syscalls:sys_enter_futex
count=(perf stat -x, -e "$ev")
"${count[@]}" true > /dev/null 2>&1 || count=()
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "# bind: $(date -u +%FT%TZ), $(nproc) CPUs, Laplace ${LAPLACE_N}^2, 2 processes, $L launches per (reflect, version, binding), $NHALO reflects each after a barrier"
echo "# load average before: $(load)"
tsv=$BUILD/launches.tsv
: > "$tsv"
fail=0
for ((i = 1; i <= L; i++)); do
    ((i % 10 == 1)) && echo "launch $i/$L (load $(load)) ..." >&2
    if ((i % 2)); then binds=(none core); else binds=(core none); fi
    for r in $REFLECTS; do
        for v in $VERSIONS; do
            for bind in "${binds[@]}"; do
                # shellcheck disable=SC2086
                out=$(timeout 120 "${count[@]}" "$MPIEXEC" -bind-to $bind -n 2 ${CMD[$r.$v]} 2>&1) ||
                    { echo "FAILED: $MPIEXEC -bind-to $bind -n 2 ${CMD[$r.$v]}" >&2; fail=1; continue; }
                h1=$(awk '$1=="halo1"{print $2 * 1e6}' <<<"$out")
                c() { awk -F, -v e="$1" '$3==e{print $1 / '"$NHALO"'}' <<<"$out"; }
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$r" "$v" "$bind" "${h1:--}" \
                    "$(c context-switches)" "$(c syscalls:sys_enter_sched_yield)" "$(c syscalls:sys_enter_futex)" >> "$tsv"
            done
        done
    done
done
python3 "$here/stats.py" reflect "$tsv" || fail=1
echo "# load average after: $(load) (on a loaded machine, waits fall back to yielding: compare only quiet runs)"
exit $fail
