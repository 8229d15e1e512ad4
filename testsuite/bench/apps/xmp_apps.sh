#!/usr/bin/env bash
# The XMP applications of ../shared/external/xmp-apps (issue 40), built from unchanged
# source with their Omni build flags through xmpc's drop-ins (xmpf90/xmpcc of target/;
# the Makefiles' compiler variables overridden on the make command line), run on their
# reference inputs and compared with their references. Prints one table: app, np,
# build ok, run ok, check, wall time. Outside CI (it needs ../shared); the sources are
# copied to $BUILD and built there, never in the repository.
#
#   testsuite/bench/apps/xmp_apps.sh                  all four apps
#   testsuite/bench/apps/xmp_apps.sh cloverleaf ffb   some (cloverleaf ccs-qcd ffb nicam)
#   SPEED=1 testsuite/bench/apps/xmp_apps.sh cloverleaf   + CloverLeaf vs CloverLeaf_ref
#
# What is compared:
# - CloverLeaf (clover.in, 960x960, 87 steps; make COMPILER=GNU: -O3 -march=native
#   -funroll-loops -fopenmp -omp): the built-in check prints PASSED and every per-step
#   line (` Step N time ...`) equals correct_output's. `nodes p(*,*)`: XMP_NODE_SIZE0
#   is set (np x 1). SPEED=1 also builds CloverLeaf_ref 1.3 (the MPI original, same
#   flags) and runs both on the same deck, interleaved, RUNS rounds (default 3) at
#   SPEED_NPS (default "1 2"); prints the medians and their ratio (xmp / ref).
# - CCS-QCD (class 1, 8x8x8x32; src/make.xmp_gfortran.inc, config.h of CLASS_1; the
#   node array 1x1x1, 1x1x2, 1x2x2 by -D_NDIMX/Y/Z): Sum[Log[Det]], the check sums of U
#   and Y to 1e-10 relative and 272 iterations, against results/k/class1. Built at
#   QCD_OPT (default -O1 for the Makefile's -O2): gfortran 12 with the Makefile's -O2
#   -march=native gives NaN for Sum[Log[Det]] already without XMP (mpif90
#   -fcoarray=single); -O1 and -O0 give the reference.
# - FFB-MINI (src/make_setting: -O2, NO_METIS, NO_REFINER, PROF_MAPROF; MPIHOME and
#   MPIINC given): its reference (test/master, `2 2 2 46`) needs 8 processes (8 x 46^3
#   elements; on 2 shared cores its coarray syncs make it hours), and no plain-gfortran
#   build exists to compare with (dd_mpi.F90 uses Omni-only coarray forms:
#   `DIMENSION X(N)[*]`, `CO_SUM(SEND,RECV)`, INCLUDE before IMPLICIT). So np=1 runs
#   `1 1 1 FFB_N` (default 20) and checks that the 100 steps run and test/check.py's
#   quantities at step 100 (Pave Vave Vmax) are finite numbers; FFB_NPS="1 4" adds np=4
#   (`2 2 1 FFB_N`, same check). np=2 is not run: with one neighbour (NDOM=1) DDCOMX
#   uses START_S uninitialised (the app's `IF (NDOM > 1) START_S(LDOM(1))=NSTART`), so
#   its first put indexes BUFRCV(0). FFB_FULL=1 adds the reference run (np=8, `2 2 2
#   46`, test/check.py's comparison with test/master: EPS 1e-4 relative).
# - NICAM-DC-MINI (sysdep/Makedef.Linux64-gnu-mpich-xmp): build only by default; its
#   test case (gl05rl00, 10 regions) needs 5 or 10 processes and the distribution has
#   no reference output; NICAM_RUN=1 runs it at 5 processes (run ok only).
#
# Environment: XMP_APPS (the apps; default ../shared/external/xmp-apps beside the
# repository or its parent), CLOVER_REF (../shared/external/cloverleaf-ref), BIN (the
# directory of xmpf90/xmpcc; default target/release, then target/debug), BUILD (default
# a new temporary directory), MPIEXEC (mpiexec), OMP_NUM_THREADS (default 1), NPS
# (CloverLeaf and CCS-QCD, default "1 2 4"), RUNS, SPEED_NPS, QCD_OPT, FFB_N.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
pick() { for d in "$@"; do [[ -d $d ]] && { echo "$d"; return; }; done; echo "$1"; }
XMP_APPS=${XMP_APPS:-$(pick "$root/../shared/external/xmp-apps" "$root/../../shared/external/xmp-apps")}
CLOVER_REF=${CLOVER_REF:-$(pick "$root/../shared/external/cloverleaf-ref" "$root/../../shared/external/cloverleaf-ref")}
tgt=${CARGO_TARGET_DIR:-$root/target}
if [[ -z "${BIN:-}" ]]; then
    for c in "$tgt/release" "$tgt/debug"; do [[ -x $c/xmpf90 ]] && { BIN=$c; break; }; done
fi
: "${BIN:?build the drop-ins first (cargo build -p xmpc -p xmpc-rt)}"
[[ -d $XMP_APPS ]] || { echo "no applications at $XMP_APPS (set XMP_APPS)" >&2; exit 2; }
BUILD=${BUILD:-$(mktemp -d /tmp/xmp_apps.XXXXXX)}
mkdir -p "$BUILD"
MPIEXEC=${MPIEXEC:-mpiexec}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
NPS=${NPS:-1 2 4}
RUNS=${RUNS:-3}
SPEED_NPS=${SPEED_NPS:-1 2}
QCD_OPT=${QCD_OPT:--O1}
FFB_N=${FFB_N:-20}
export PATH="$BIN:$PATH"
MPIINC=$(dirname "$(find /usr/include /usr/lib -name mpif.h 2>/dev/null | head -1)")
ulimit -s unlimited 2>/dev/null || ulimit -s 1048576 2>/dev/null || true # CCS-QCD's arrays are on the stack
APPS=${*:-cloverleaf ccs-qcd ffb nicam}
ROWS=()
row() { ROWS+=("$(printf '%-14s %3s  %-5s %-5s %-48s %9s' "$@")"); echo "  $1 np=$2: build $3, run $4, check $5, ${6}s" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
# fresh copy of an app's sources
fresh() { rm -rf "${2:?}"; cp -r "$1" "$2"; }
med() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# ---------------------------------------------------------------- CloverLeaf
clover_run() { # dir np out -> wall seconds on stdout, status
    local d=$1 np=$2 out=$3 t0
    t0=$(now)
    (cd "$d" && rm -f clover.out && XMP_NODE_SIZE0=$np XMP_NODE_SIZE1=1 timeout 1200 $MPIEXEC -n "$np" ./clover_leaf >"$out" 2>&1)
    local rc=$?
    since "$t0"
    return $rc
}
cloverleaf() {
    local d=$BUILD/cloverleaf
    fresh "$XMP_APPS/CloverLeaf" "$d"
    echo "CloverLeaf: building in $d" >&2
    local b=no
    (cd "$d" && make -j2 COMPILER=GNU XMP_COMPILER=xmpf90 C_XMP_COMPILER=xmpcc >build.log 2>&1) && b=ok
    for np in $NPS; do
        [[ $b == ok ]] || { row CloverLeaf "$np" no - "build failed: $d/build.log" -; continue; }
        local w r=no c
        w=$(clover_run "$d" "$np" "$d/run$np.log") && r=ok
        if [[ $r == ok ]] && grep -q 'This test is considered PASSED' "$d/clover.out" \
            && diff <(grep -E '^ Step +[0-9]' "$d/correct_output") <(grep -E '^ Step +[0-9]' "$d/clover.out") >/dev/null; then
            c="PASSED, $(grep -cE '^ Step +[0-9]' "$d/clover.out") steps = correct_output"
        else
            c="FAIL (clover.out vs correct_output)"
        fi
        cp "$d/clover.out" "$d/clover$np.out" 2>/dev/null
        row CloverLeaf "$np" "$b" "$r" "$c" "$w"
    done
    [[ -n "${SPEED:-}" && $b == ok ]] && clover_speed "$d"
}
clover_speed() {
    local x=$1 ref=$BUILD/cloverleaf-ref
    fresh "$CLOVER_REF" "$ref"
    (cd "$ref" && make -j2 COMPILER=GNU MPI_COMPILER=mpif90 C_MPI_COMPILER=mpicc >build.log 2>&1) || { echo "CloverLeaf_ref: build failed ($ref/build.log)" >&2; return; }
    cp "$x/clover.in" "$ref/clover.in"
    for np in $SPEED_NPS; do
        local tx=() tr=() k
        for ((k = 0; k < RUNS; k++)); do # alternating order: A B, B A, ...
            if ((k % 2 == 0)); then
                tx+=("$(clover_run "$x" "$np" /dev/null)"); tr+=("$(clover_run "$ref" "$np" /dev/null)")
            else
                tr+=("$(clover_run "$ref" "$np" /dev/null)"); tx+=("$(clover_run "$x" "$np" /dev/null)")
            fi
        done
        local mx mr
        mx=$(printf '%s\n' "${tx[@]}" | med); mr=$(printf '%s\n' "${tr[@]}" | med)
        SPEED_ROWS+=("$(printf 'CloverLeaf np=%s: xmp %6.2fs  ref %6.2fs  ratio %.3f   (xmp: %s; ref: %s)' "$np" "$mx" "$mr" \
            "$(awk -v a="$mx" -v b="$mr" 'BEGIN { print a / b }')" "${tx[*]}" "${tr[*]}")")
    done
}

# ---------------------------------------------------------------- CCS-QCD
qcd_ref=$XMP_APPS/CCS-QCD/results/k/class1/qcd-class1-2013-05-01.o2031498
qcd_check() { # out -> verdict
    awk -v ref="$qcd_ref" '
        function rel(a, b) { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; return m > 0 ? d / m : d }
        function nums(s, arr,   n) { gsub(/[(),=]/, " ", s); n = split(s, arr, " "); return n }
        FNR == NR {
            if ($0 ~ /Sum\[Log\[Det/ && !rl) { n = nums($0, a); rl = a[n] }
            if ($0 ~ /Check sum U/ && !ru1) { n = nums($0, a); ru1 = a[n - 1]; ru2 = a[n] }
            if ($0 ~ /Check sum Y/ && !ry1) { n = nums($0, a); ry1 = a[n - 1]; ry2 = a[n] }
            if ($0 ~ /Iter =/ && !ri) { n = nums($0, a); ri = a[n] }
            next
        }
        $0 ~ /Sum\[Log\[Det/ && !l { n = nums($0, a); l = a[n] }
        $0 ~ /Check sum U/ && !u1 { n = nums($0, a); u1 = a[n - 1]; u2 = a[n] }
        $0 ~ /Check sum Y/ && !y1 { n = nums($0, a); y1 = a[n - 1]; y2 = a[n] }
        $0 ~ /Iter =/ && !it { n = nums($0, a); it = a[n] }
        END {
            bad = (l == "" || rel(l, rl) > 1e-10 || rel(u1, ru1) > 1e-10 || rel(u2, ru2) > 1e-10 \
                   || rel(y1, ry1) > 1e-10 || rel(y2, ry2) > 1e-10 || it != ri)
            printf "%s logdet %s, iter %s", bad ? "FAIL" : "ok", l == "" ? "none" : l, it
        }' "$qcd_ref" "$1"
}
ccs_qcd() {
    for np in $NPS; do
        local dims
        case $np in 1) dims="1 1 1" ;; 2) dims="1 1 2" ;; 4) dims="1 2 2" ;; 8) dims="2 2 2" ;; *) row CCS-QCD "$np" - - "no node array for np=$np" -; continue ;; esac
        local d=$BUILD/ccs-qcd-$np b=no r=no c=- w=-
        fresh "$XMP_APPS/CCS-QCD" "$d"
        read -r px py pz <<<"$dims"
        # make.xmp_gfortran.inc's FFLAGS (-O2 -> QCD_OPT) and the Makefile's additions
        local ff="-cpp -omp $QCD_OPT -ffixed-line-length-132 -march=native -g -fopenmp -mcmodel=medium -funderscoring -Ima_prof/src -D_NDIMX=$px -D_NDIMY=$py -D_NDIMZ=$pz"
        echo "CCS-QCD np=$np: building in $d/src" >&2
        (cd "$d/src" && make MAKE_INC=make.xmp_gfortran.inc CLASS=1 MPIINC="$MPIINC" FFLAGS="$ff" >build.log 2>&1) && b=ok
        if [[ $b == ok ]]; then
            local t0; t0=$(now)
            (cd "$d/src" && timeout 1200 $MPIEXEC -n "$np" ./ccs_qcd_solver_bench_class1 >run.log 2>&1) && r=ok
            w=$(since "$t0")
            c=$(qcd_check "$d/src/run.log")
        fi
        row CCS-QCD "$np" "$b" "$r" "$c" "$w"
    done
}

# ---------------------------------------------------------------- FFB-MINI
ffb_build() { # dir [make args...]
    local d=$1; shift
    (cd "$d/src" && make MPIHOME=/usr MPIINC="$MPIINC" "$@" >build.log 2>&1 && [[ -x ../bin/ffb_mini ]])
}
ffb_vals() { # log -> "Pave Vave Vmax" at step 100
    awk '/^ *STEP +[0-9]+ / { s = $2 } s == 100 && /Pave=/ { gsub(/=/, "= "); for (i = 1; i <= NF; i++) { if ($i == "Pave=") p = $(i+1); if ($i == "Vave=") v = $(i+1); if ($i == "Vmax=") m = $(i+1) } } END { print p, v, m }' "$1"
}
ffb() {
    local d=$BUILD/ffb b=no
    fresh "$XMP_APPS/FFB-MINI" "$d"
    echo "FFB-MINI: building in $d/src" >&2
    ffb_build "$d" && b=ok
    local cfgs=()
    for np in ${FFB_NPS:-1}; do
        case $np in 1) cfgs+=("1:1 1 1 $FFB_N") ;; 4) cfgs+=("4:2 2 1 $FFB_N") ;; 8) cfgs+=("8:2 2 2 $FFB_N") ;; esac
    done
    [[ -n "${FFB_FULL:-}" ]] && cfgs+=("8:2 2 2 46")
    for cfg in "${cfgs[@]}"; do
        local np=${cfg%%:*} args=${cfg#*:} r=no c=- w=-
        if [[ $b == ok ]]; then
            local t0; t0=$(now)
            (cd "$d/test" && timeout 7200 $MPIEXEC -n "$np" ../bin/ffb_mini $args >"les$np.log" 2>&1) && r=ok
            w=$(since "$t0")
            local v; v=$(ffb_vals "$d/test/les$np.log")
            if [[ $args == "2 2 2 46" ]]; then
                c=$(awk -v a="$v" -v b="$(ffb_vals "$d/test/master/les3x.log.P0001")" 'BEGIN { n = split(a, x, " "); split(b, y, " "); bad = n < 3
                    for (i = 1; i <= 3; i++) { e = x[i] - y[i]; if (e < 0) e = -e; m = y[i] < 0 ? -y[i] : y[i]; if (e > 1e-4 * (m > 0 ? m : 1)) bad = 1 }
                    printf "%s = test/master at step 100", bad ? "FAIL" : "ok" }')
            elif [[ $v =~ ^[-0-9.E+]+\ [-0-9.E+]+\ [-0-9.E+]+$ ]]; then
                c="100 steps, finite: $v"
            else
                c="FAIL at step 100: '$v'"
            fi
            [[ $r == ok ]] || c="$c; $(grep -m1 -iE 'error|abort' "$d/test/les$np.log")"
        fi
        row FFB-MINI "$np" "$b" "$r" "${c:0:48}" "$w"
    done
}

# ---------------------------------------------------------------- NICAM-DC-MINI
nicam() {
    local d=$BUILD/nicam b=no
    fresh "$XMP_APPS/NICAM-DC-MINI" "$d"
    echo "NICAM-DC-MINI: building in $d/src" >&2
    (cd "$d/src" && make NICAM_SYS=Linux64-gnu-mpich-xmp >build.log 2>&1 && [[ -x ../bin/nhm_driver ]]) && b=ok
    local nf; nf=$(grep -cE '^xmpf90 .* -c ' "$d/src/build.log")
    if [[ -z "${NICAM_RUN:-}" || $b != ok ]]; then
        row NICAM-DC-MINI - "$b" - "$([[ $b == ok ]] && echo "built ($nf files)" || echo "build failed after $nf files")" -
        return
    fi
    local t0 r=no w
    t0=$(now)
    (cd "$d/test/case/jablonowski" && export NICAM_SYS=Linux64-gnu-mpich-xmp \
        && sed -i 's/^nmpi *= *10/nmpi   = 5/' ../../test.conf \
        && make jobshell >jobshell.log 2>&1 && cd "$(make -s getrundir)" && sed -i "s/mpirun -np/$MPIEXEC -n/" run.sh \
        && timeout 3600 bash run.sh >run.log 2>&1) && r=ok
    w=$(since "$t0")
    row NICAM-DC-MINI 5 "$b" "$r" "run only (no reference output)" "$w"
}

SPEED_ROWS=()
echo "# xmp_apps.sh: drop-ins $BIN, build $BUILD, OMP_NUM_THREADS=$OMP_NUM_THREADS, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for a in $APPS; do
    case $a in
    cloverleaf) cloverleaf ;;
    ccs-qcd | qcd) ccs_qcd ;;
    ffb | ffb-mini) ffb ;;
    nicam | nicam-dc-mini) nicam ;;
    *) echo "unknown app $a (cloverleaf ccs-qcd ffb nicam)" >&2; exit 2 ;;
    esac
done
printf '%-14s %3s  %-5s %-5s %-48s %9s\n' app np build run check "wall(s)"
printf '%s\n' "${ROWS[@]}"
if ((${#SPEED_ROWS[@]})); then
    echo "CloverLeaf vs CloverLeaf_ref (same deck and flags, median of $RUNS alternating rounds; load $(cut -d' ' -f1-3 /proc/loadavg)):"
    printf '%s\n' "${SPEED_ROWS[@]}"
fi
