#!/usr/bin/env bash
# Correctness check of the applications at small sizes: every XMP C and hand-written
# MPI variant of Laplace and Himeno must print the same checksum as the sequential
# program (relative difference <= 1e-9: only the summation order of the checksum
# differs) and, for Himeno, the same residual gosa within 1e-3 (a float sum whose
# order depends on the decomposition). The same for the Fortran variants against the
# sequential Fortran programs, which are themselves compared with the C ones (Laplace:
# 1e-9; Himeno, whose Fortran stencil adds its terms in another order: checksum 1e-6).
# The XcalableACC programs and the OpenACC builds of the MPI programs are compared
# with the sequential C ones too (OpenACC host fallback: see their section below).
#
#   testsuite/apps/check.sh            (XMPC, MPIEXEC, CC, MPICC, FC, MPIFC, BUILD from the environment)
# Exit status 0 when every comparison holds.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tgt=${CARGO_TARGET_DIR:-$root/target}
XMPC=${XMPC:-$tgt/debug/xmpc}
MPIEXEC=${MPIEXEC:-mpiexec}
CC=${CC:-cc}
MPICC=${MPICC:-mpicc}
FC=${FC:-gfortran}
MPIFC=${MPIFC:-mpif90}
BUILD=${BUILD:-$tgt/apps-check}
mkdir -p "$BUILD"
fail=0 pass=0
LN=96 LIT=60 HS=SSMALL HNN=12
b() { "$@" > "$BUILD/build.log" 2>&1 || { echo "FAIL build: $*"; sed 's/^/    /' "$BUILD/build.log" | tail -15; fail=$((fail + 1)); return 1; }; }
val() { awk -v k="$1" '$1==k{print $2}' <<<"$2"; }
cmp_out() { # name ref-output output [tol-checksum]
    local name=$1 ref=$2 out=$3 ok=1
    for key in checksum gosa; do
        local a b tol=${4:-1e-9}
        a=$(val $key "$ref"); b=$(val $key "$out")
        [[ -z $a ]] && continue
        [[ $key == gosa ]] && tol=1e-3
        if [[ -z $b ]] || ! awk -v a="$a" -v b="$b" -v t="$tol" 'BEGIN{d=a-b; if(d<0)d=-d; s=a<0?-a:a; exit !(d <= t*s)}'; then
            echo "FAIL $name: $key ${b:-missing} vs sequential $a"; ok=0
        fi
    done
    if ((ok)); then pass=$((pass + 1)); echo "ok   $name"; else fail=$((fail + 1)); echo "$out" | sed 's/^/    /' | tail -8; fi
}
run() { timeout 120 "$@" 2>&1; }

b $CC -O2 -DNX=$LN -DNY=$LN -o "$BUILD/laplace_seq" "$here/laplace/laplace_seq.c"
b $MPICC -O2 -o "$BUILD/laplace_mpi" "$here/laplace/laplace_mpi.c"
b $CC -O2 -DSIZE_$HS -o "$BUILD/himeno_seq" "$here/himeno/himeno_seq.c"
b $MPICC -O2 -DSIZE_$HS -o "$BUILD/himeno_mpi" "$here/himeno/himeno_mpi.c"
lref=$(run "$BUILD/laplace_seq" $LIT)
href=$(run "$BUILD/himeno_seq" $HNN)
b "$XMPC" -O2 -DNX=$LN -DNY=$LN -o "$BUILD/laplace_xmp_rows" "$here/laplace/laplace_xmp_rows.c"
b "$XMPC" -O2 -DSIZE_$HS -I"$here/himeno" -o "$BUILD/himeno_xmp_1d" "$here/himeno/himeno_xmp_1d.c"
for np in 1 2 4; do
    cmp_out "laplace mpi rows np=$np" "$lref" "$(run $MPIEXEC -n $np "$BUILD/laplace_mpi" $LN $LN $LIT 1)"
    cmp_out "himeno mpi i-split np=$np" "$href" "$(run $MPIEXEC -n $np "$BUILD/himeno_mpi" $HNN 1)"
    [[ -x $BUILD/laplace_xmp_rows ]] && cmp_out "laplace xmp rows np=$np" "$lref" "$(run $MPIEXEC -n $np "$BUILD/laplace_xmp_rows" $LIT)"
    [[ -x $BUILD/himeno_xmp_1d ]] && cmp_out "himeno xmp 1d np=$np" "$href" "$(run $MPIEXEC -n $np "$BUILD/himeno_xmp_1d" $HNN)"
done
for np in 2 4; do
    for px in 1 2 4; do
        ((px > np)) && continue
        cmp_out "laplace mpi ${px}x$((np / px)) np=$np" "$lref" "$(run $MPIEXEC -n $np "$BUILD/laplace_mpi" $LN $LN $LIT $px)"
        cmp_out "himeno mpi pj=$px np=$np" "$href" "$(run $MPIEXEC -n $np "$BUILD/himeno_mpi" $HNN $px)"
        if b "$XMPC" -O2 -DNX=$LN -DNY=$LN -DPX=$px -o "$BUILD/laplace_xmp_2d" "$here/laplace/laplace_xmp_2d.c"; then
            cmp_out "laplace xmp 2d p($px,*) np=$np" "$lref" "$(run $MPIEXEC -n $np "$BUILD/laplace_xmp_2d" $LIT)"
        fi
        if b "$XMPC" -O2 -DSIZE_$HS -DPJ=$px -I"$here/himeno" -o "$BUILD/himeno_xmp_2d" "$here/himeno/himeno_xmp_2d.c"; then
            cmp_out "himeno xmp 2d n($px,*) np=$np" "$href" "$(run $MPIEXEC -n $np "$BUILD/himeno_xmp_2d" $HNN)"
        fi
    done
done

# ---- XcalableACC: laplace_xacc / himeno_xacc (the thesis' listings A.1 / A.2 on the
# decompositions of laplace_xmp_2d / himeno_xmp_2d) and the OpenACC builds of the MPI
# programs (their expert baselines), all with GCC's OpenACC host fallback (xmpc
# compiles a source with `#pragma acc` with -fopenacc; no GPU here, so the kernels
# and the device copies are the host's).
b $MPICC -O2 -fopenacc -o "$BUILD/laplace_mpi_acc" "$here/laplace/laplace_mpi.c"
b $MPICC -O2 -fopenacc -DSIZE_$HS -o "$BUILD/himeno_mpi_acc" "$here/himeno/himeno_mpi.c"
for px in 1 2 4; do
    b "$XMPC" -O2 -DNX=$LN -DNY=$LN -DPX=$px -o "$BUILD/laplace_xacc_p$px" "$here/laplace/laplace_xacc.c"
    b "$XMPC" -O2 -DSIZE_$HS -DPJ=$px -I"$here/himeno" -o "$BUILD/himeno_xacc_p$px" "$here/himeno/himeno_xacc.c"
done
for np in 1 2 4; do
    for px in 1 2 4; do
        ((px > np)) && continue
        cmp_out "laplace mpi+acc ${px}x$((np / px)) np=$np" "$lref" "$(run $MPIEXEC -n $np "$BUILD/laplace_mpi_acc" $LN $LN $LIT $px 5)"
        cmp_out "himeno mpi+acc pj=$px np=$np" "$href" "$(run $MPIEXEC -n $np "$BUILD/himeno_mpi_acc" $HNN $px)"
        [[ -x $BUILD/laplace_xacc_p$px ]] &&
            cmp_out "laplace xacc p($px,*) np=$np" "$lref" "$(run $MPIEXEC -n $np "$BUILD/laplace_xacc_p$px" $LIT 5)"
        [[ -x $BUILD/himeno_xacc_p$px ]] &&
            cmp_out "himeno xacc n($px,*) np=$np" "$href" "$(run $MPIEXEC -n $np "$BUILD/himeno_xacc_p$px" $HNN)"
    done
done

# ---- Fortran: u(i, j) and p(i, j, k) with the first index contiguous, so the
# decomposition with contiguous halos splits the last dimension (laplace_xmp_1d,
# himeno_xmp_1d, MPI PX = 1 / PJ = 1) and the 2-D ones split the first
# distributed dimension too (strided halos). Laplace runs with NHALO = 0 (no
# isolated halo timing: only the checksum matters here).
b $FC -O2 -DNX=$LN -DNY=$LN -o "$BUILD/laplace_seq_f" "$here/laplace/laplace_seq.F90"
b $MPIFC -O2 -o "$BUILD/laplace_mpi_f" "$here/laplace/laplace_mpi.f90"
b $FC -O2 -DSIZE_$HS -I"$here/himeno" -o "$BUILD/himeno_seq_f" "$here/himeno/himeno_seq.F90"
b $MPIFC -O2 -DSIZE_$HS -I"$here/himeno" -o "$BUILD/himeno_mpi_f" "$here/himeno/himeno_mpi.F90"
lfref=$(run "$BUILD/laplace_seq_f" $LIT)
hfref=$(run "$BUILD/himeno_seq_f" $HNN)
cmp_out "laplace Fortran seq vs C seq" "$lref" "$lfref"
cmp_out "himeno Fortran seq vs C seq" "$href" "$hfref" 1e-6
b "$XMPC" -O2 -DNX=$LN -DNY=$LN -o "$BUILD/laplace_xmp_1d_f" "$here/laplace/laplace_xmp_1d.F"
b "$XMPC" -O2 -DSIZE_$HS -I"$here/himeno" -o "$BUILD/himeno_xmp_1d_f" "$here/himeno/himeno_xmp_1d.F90"
for px in 1 2 4; do
    b "$XMPC" -O2 -DNX=$LN -DNY=$LN -DPX=$px -o "$BUILD/laplace_xmp_2d_f_p$px" "$here/laplace/laplace_xmp_2d.F90"
    b "$XMPC" -O2 -DSIZE_$HS -DPJ=$px -I"$here/himeno" -o "$BUILD/himeno_xmp_2d_f_p$px" "$here/himeno/himeno_xmp_2d.F90"
done
for np in 1 2 4; do
    cmp_out "laplace-f mpi cols np=$np" "$lfref" "$(run $MPIEXEC -n $np "$BUILD/laplace_mpi_f" $LN $LN $LIT 1 0)"
    cmp_out "himeno-f mpi k-split np=$np" "$hfref" "$(run $MPIEXEC -n $np "$BUILD/himeno_mpi_f" $HNN 1)"
    [[ -x $BUILD/laplace_xmp_1d_f ]] && cmp_out "laplace-f xmp 1d np=$np" "$lfref" "$(run $MPIEXEC -n $np "$BUILD/laplace_xmp_1d_f" $LIT 0)"
    [[ -x $BUILD/himeno_xmp_1d_f ]] && cmp_out "himeno-f xmp 1d np=$np" "$hfref" "$(run $MPIEXEC -n $np "$BUILD/himeno_xmp_1d_f" $HNN)"
done
for np in 2 4; do
    for px in 1 2 4; do
        ((px > np)) && continue
        cmp_out "laplace-f mpi ${px}x$((np / px)) np=$np" "$lfref" "$(run $MPIEXEC -n $np "$BUILD/laplace_mpi_f" $LN $LN $LIT $px 0)"
        cmp_out "himeno-f mpi pj=$px np=$np" "$hfref" "$(run $MPIEXEC -n $np "$BUILD/himeno_mpi_f" $HNN $px)"
        [[ -x $BUILD/laplace_xmp_2d_f_p$px ]] &&
            cmp_out "laplace-f xmp 2d p($px,*) np=$np" "$lfref" "$(run $MPIEXEC -n $np "$BUILD/laplace_xmp_2d_f_p$px" $LIT 0)"
        [[ -x $BUILD/himeno_xmp_2d_f_p$px ]] &&
            cmp_out "himeno-f xmp 2d n($px,*) np=$np" "$hfref" "$(run $MPIEXEC -n $np "$BUILD/himeno_xmp_2d_f_p$px" $HNN)"
    done
done
echo "apps: $pass passed, $fail failed"
((fail == 0))
