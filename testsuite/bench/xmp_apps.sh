#!/usr/bin/env bash
# Benchmark of the XMP applications in C or Fortran: xmpc-generated vs hand-written
# MPI vs plain sequential code, for the 2-D Laplace solver and the Himeno benchmark,
# at 1 and 2 processes, median of RUNS runs. Prints a table of times, ratios to
# sequential and to MPI, the halo-exchange (reflect) times, and a strided-vs-contiguous
# halo comparison. C is row-major: block rows have contiguous halos, block columns
# strided ones (of the same length); Himeno i planes vs j split. Fortran is
# column-major: blocks of columns contiguous, blocks of rows strided; Himeno k planes
# vs j split. xmp_c.sh and xmp_f.sh call this script.
#
#   testsuite/bench/xmp_apps.sh c|f          full sizes: Laplace 2048^2 x 1000, Himeno MIDDLE
#   QUICK=1 testsuite/bench/xmp_apps.sh c|f  small sizes (a smoke test, seconds)
#
# Environment: XMPC (driver; default target/release/xmpc, then target/debug/xmpc under
# $CARGO_TARGET_DIR or ./target), RUNS (default 3), LAPLACE_N (2048), LAPLACE_ITER (1000),
# HIMENO_SIZE (MIDDLE), HIMENO_NN (100), NPS ("1 2"), BUILD (build dir), MPIEXEC
# (mpiexec); for C: CC (cc), MPICC (mpicc), CFLAGS (-O2); for Fortran: FC (gfortran),
# MPIFC (mpif90), FFLAGS (-O2).
set -euo pipefail
lang=${1:?usage: xmp_apps.sh c|f}

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
apps=$root/testsuite/apps
tgt=${CARGO_TARGET_DIR:-$root/target}
if [[ -z "${XMPC:-}" ]]; then
    for c in "$tgt/release/xmpc" "$tgt/debug/xmpc"; do
        [[ -x $c ]] && { XMPC=$c; break; }
    done
fi
: "${XMPC:?set XMPC to the xmpc driver (cargo build --release --bin xmpc -p xmpc-rt)}"
RUNS=${RUNS:-3}
case $lang in
c)  SEQ=${CC:-cc} PAR=${MPICC:-mpicc} FLAGS=${CFLAGS:--O2} LANGNAME=C
    # sources: sequential, MPI, XMP 1-D (contiguous halos), XMP 2-D (strided)
    LAP=(laplace_seq.c laplace_mpi.c laplace_xmp_rows.c laplace_xmp_2d.c)
    HIM=(himeno_seq.c himeno_mpi.c himeno_xmp_1d.c himeno_xmp_2d.c)
    CONTIG="block rows" STRIDED="block cols" HCONTIG="i planes" LAYOUT="" ;;
f)  SEQ=${FC:-gfortran} PAR=${MPIFC:-mpif90} FLAGS=${FFLAGS:--O2} LANGNAME=Fortran
    LAP=(laplace_seq.F90 laplace_mpi.f90 laplace_xmp_1d.F laplace_xmp_2d.F90)
    HIM=(himeno_seq.F90 himeno_mpi.F90 himeno_xmp_1d.F90 himeno_xmp_2d.F90)
    CONTIG="block cols" STRIDED="block rows" HCONTIG="k planes" LAYOUT=" (Fortran order, himeno_f.h)" ;;
*)  echo "usage: xmp_apps.sh c|f" >&2; exit 2 ;;
esac
MPIEXEC=${MPIEXEC:-mpiexec}
NPS=${NPS:-1 2}
if [[ -n "${QUICK:-}" ]]; then
    LAPLACE_N=${LAPLACE_N:-256}; LAPLACE_ITER=${LAPLACE_ITER:-100}
    HIMENO_SIZE=${HIMENO_SIZE:-SSMALL}; HIMENO_NN=${HIMENO_NN:-20}
fi
LAPLACE_N=${LAPLACE_N:-2048}
LAPLACE_ITER=${LAPLACE_ITER:-1000}
HIMENO_SIZE=${HIMENO_SIZE:-MIDDLE}
HIMENO_NN=${HIMENO_NN:-100}
BUILD=${BUILD:-$tgt/bench-xmp-$lang}
mkdir -p "$BUILD"
log=$BUILD/runs.log
: > "$log"

echo "# xmp_$lang bench: $(date -u +%FT%TZ) on $(nproc) cores, $($MPIEXEC --version 2>&1 | head -2 | tr '\n' ' ')"
echo "# xmpc: $XMPC   flags: $FLAGS ($($SEQ --version | head -1))   runs: $RUNS (median)"
echo "# Laplace ${LAPLACE_N}^2 x $LAPLACE_ITER iterations; Himeno $HIMENO_SIZE$LAYOUT x $HIMENO_NN iterations"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (timings are only comparable on an otherwise idle machine)"

# ---- build -----------------------------------------------------------------------
b() { echo "+ $*" >> "$log"; "$@" >> "$log" 2>&1 || { echo "build failed: $*" >&2; tail -20 "$log" >&2; exit 1; }; }
L="-DNX=$LAPLACE_N -DNY=$LAPLACE_N"
H="-DSIZE_$HIMENO_SIZE"
b $SEQ $FLAGS $L -o "$BUILD/laplace_seq" "$apps/laplace/${LAP[0]}"
b $PAR $FLAGS -o "$BUILD/laplace_mpi" "$apps/laplace/${LAP[1]}"
b $SEQ $FLAGS $H -I"$apps/himeno" -o "$BUILD/himeno_seq" "$apps/himeno/${HIM[0]}"
b $PAR $FLAGS $H -I"$apps/himeno" -o "$BUILD/himeno_mpi" "$apps/himeno/${HIM[1]}"
b "$XMPC" $FLAGS $L -o "$BUILD/laplace_xmp_1d" "$apps/laplace/${LAP[2]}"
b "$XMPC" $FLAGS $H -I"$apps/himeno" -o "$BUILD/himeno_xmp_1d" "$apps/himeno/${HIM[2]}"
for np in $NPS; do
    # 2-D programs split the contiguous dimension over all np processes: every halo strided
    b "$XMPC" $FLAGS $L -DPX=$np -o "$BUILD/laplace_xmp_2d_p$np" "$apps/laplace/${LAP[3]}"
    b "$XMPC" $FLAGS $H -DPJ=$np -I"$apps/himeno" -o "$BUILD/himeno_xmp_2d_p$np" "$apps/himeno/${HIM[3]}"
done

# ---- run ---------------------------------------------------------------------------
# run KEY NP CMD...: RUNS runs; records median time/halo and the last checksum.
declare -A T H C TMIN H1
run() {
    local key=$1 np=$2; shift 2
    local ts=() hs=() h1s=() out i
    for ((i = 0; i < RUNS; i++)); do
        if [[ $np == 0 ]]; then out=$("$@"); else out=$($MPIEXEC -n "$np" "$@"); fi
        echo "== $key run $i: $*" >> "$log"; echo "$out" >> "$log"
        ts+=("$(awk '$1=="time"{print $2}' <<<"$out")")
        hs+=("$(awk '$1=="halo"{print $2}' <<<"$out")")
        h1s+=("$(awk '$1=="halo1"{print $2}' <<<"$out")")
        C[$key]=$(awk '$1=="checksum"{print $2}' <<<"$out")
    done
    T[$key]=$(printf '%s\n' "${ts[@]}" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
    H[$key]=$(printf '%s\n' "${hs[@]}" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
    H1[$key]=$(printf '%s\n' "${h1s[@]}" | awk 'NF' | sort -g | awk '{a[NR]=$1} END{if (NR) print a[int((NR+1)/2)]}')
    TMIN[$key]=$(printf '%s\n' "${ts[@]}" | sort -g | head -1)
    printf '  %-22s np=%s  time %-10s (min %-10s) halo %s\n' "$key" "$np" "${T[$key]}" "${TMIN[$key]}" "${H[$key]}" >&2
}

echo "running (median of $RUNS; raw output in $log) ..." >&2
run lap.seq 0 "$BUILD/laplace_seq" "$LAPLACE_ITER"
run him.seq 0 "$BUILD/himeno_seq" "$HIMENO_NN"
for np in $NPS; do
    run lap.mpi.contig.$np "$np" "$BUILD/laplace_mpi" "$LAPLACE_N" "$LAPLACE_N" "$LAPLACE_ITER" 1
    run lap.xmp.contig.$np "$np" "$BUILD/laplace_xmp_1d" "$LAPLACE_ITER"
    run lap.mpi.strided.$np "$np" "$BUILD/laplace_mpi" "$LAPLACE_N" "$LAPLACE_N" "$LAPLACE_ITER" "$np"
    run lap.xmp.strided.$np "$np" "$BUILD/laplace_xmp_2d_p$np" "$LAPLACE_ITER"
    run him.mpi.contig.$np "$np" "$BUILD/himeno_mpi" "$HIMENO_NN" 1
    run him.xmp.contig.$np "$np" "$BUILD/himeno_xmp_1d" "$HIMENO_NN"
    run him.mpi.strided.$np "$np" "$BUILD/himeno_mpi" "$HIMENO_NN" "$np"
    run him.xmp.strided.$np "$np" "$BUILD/himeno_xmp_2d_p$np" "$HIMENO_NN"
done

# ---- report ------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.3f", a / b; else printf "-" }'; }
ms() { awk -v a="$1" -v n="$2" 'BEGIN{ printf "%.4f", 1000 * a / n }'; }
same() { awk -v a="$1" -v b="$2" 'BEGIN{ d = a - b; if (d < 0) d = -d; s = b < 0 ? -b : b; print (d <= 1e-9 * s + 1e-12) ? "ok" : "MISMATCH" }'; }
echo
printf '| %-8s | %-3s | %-26s | %9s | %7s | %7s | %9s | %9s | %s |\n' app np "version (decomposition)" "time s" "/seq" "/MPI" "halo s" "halo/MPI" "checksum"
printf '|%s|\n' "----------|-----|----------------------------|-----------|---------|---------|-----------|-----------|---------"
for app in lap him; do
    name=$([[ $app == lap ]] && echo Laplace || echo Himeno)
    printf '| %-8s | %-3s | %-26s | %9s | %7s | %7s | %9s | %9s | %s |\n' "$name" 1 "sequential $LANGNAME" "${T[$app.seq]}" 1.000 - - - ref
    for np in $NPS; do
        for d in contig strided; do
            dd=$([[ $d == contig ]] && echo "$CONTIG" || echo "$STRIDED (strided)")
            [[ $app == him && $d == contig ]] && dd="$HCONTIG"
            [[ $app == him && $d == strided ]] && dd="j split (strided)"
            for v in mpi xmp; do
                k=$app.$v.$d.$np m=$app.mpi.$d.$np
                printf '| %-8s | %-3s | %-26s | %9s | %7s | %7s | %9s | %9s | %s |\n' "$name" "$np" "$v $dd" "${T[$k]}" \
                    "$(ratio "${T[$k]}" "${T[$app.seq]}")" "$(ratio "${T[$k]}" "${T[$m]}")" "${H[$k]}" \
                    "$(ratio "${H[$k]}" "${H[$m]}")" "$(same "${C[$k]}" "${C[$app.seq]}")"
            done
        done
    done
done
echo
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "One halo exchange in isolation (each after a barrier: median of 200, then median of runs), Laplace ${LAPLACE_N}^2,"
echo "contiguous = $CONTIG (2 halos of $LAPLACE_N doubles), strided = $STRIDED (2 halos of $LAPLACE_N):"
for np in $NPS; do
    [[ $np == 1 ]] && continue
    r=${H1[lap.xmp.contig.$np]:-} c=${H1[lap.xmp.strided.$np]:-} mr=${H1[lap.mpi.contig.$np]:-} mc=${H1[lap.mpi.strided.$np]:-}
    [[ -z $r || -z $mr ]] && continue
    printf '  np=%s reflect contiguous %s ms (hand MPI %s ms, xmp/MPI %s)\n' "$np" "$(ms "$r" 1)" "$(ms "$mr" 1)" "$(ratio "$r" "$mr")"
    printf '  np=%s reflect strided    %s ms (hand MPI %s ms, xmp/MPI %s)\n' "$np" "$(ms "$c" 1)" "$(ms "$mc" 1)" "$(ratio "$c" "$mc")"
    printf '  np=%s strided/contiguous: xmp %s, hand MPI %s\n' "$np" "$(ratio "$c" "$r")" "$(ratio "$mc" "$mr")"
done
echo
echo "Halo exchange inside the solver per iteration (ms; includes waiting for the neighbour):"
for np in $NPS; do
    [[ $np == 1 ]] && continue
    for v in mpi xmp; do
        r=${H[lap.$v.contig.$np]} c=${H[lap.$v.strided.$np]}
        printf '  Laplace np=%s %-4s contiguous %s ms  strided %s ms  strided/contiguous %s\n' "$np" "$v" \
            "$(ms "$r" "$LAPLACE_ITER")" "$(ms "$c" "$LAPLACE_ITER")" "$(ratio "$c" "$r")"
        r=${H[him.$v.contig.$np]} c=${H[him.$v.strided.$np]}
        printf '  Himeno  np=%s %-4s %s %s ms  j-planes %s ms  strided/contiguous %s\n' "$np" "$v" "${HCONTIG/ /-}" \
            "$(ms "$r" "$HIMENO_NN")" "$(ms "$c" "$HIMENO_NN")" "$(ratio "$c" "$r")"
    done
done
