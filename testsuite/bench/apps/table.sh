#!/usr/bin/env bash
# The application table of issue 22: Laplace and Himeno, C and Fortran, at 1 and 2
# processes, unbound and bound to cores (mpiexec -bind-to none | core), xmpc-generated
# vs the hand-written (expert) MPI version vs the sequential program, for the
# decomposition with contiguous halos and the one with strided halos. Every
# configuration runs once per round and the rounds repeat N times, so the runs of
# one row are interleaved with all others (A B C .. A B C ..) and a load change
# hits every row alike; each cell is the median of its N runs. Prints the load
# average before and after, and for Laplace the isolated reflect (halo1: median of
# NHALO exchanges, each after a barrier) bound and unbound.
#
#   testsuite/bench/apps/table.sh            full sizes (Laplace 2048^2 x 1000, Himeno MIDDLE x 100), N=5
#   QUICK=1 testsuite/bench/apps/table.sh    small sizes, N=3 (a smoke test: about a minute)
#
# Environment: XMPC (driver; default target/release/xmpc), N (rounds), LANGS ("c f"),
# NPS ("1 2"), BINDS ("none core"), APPS ("lap him"), LAPLACE_N, LAPLACE_ITER,
# HIMENO_SIZE, HIMENO_NN, NHALO (200), BUILD (build dir), MPIEXEC, CC, MPICC, FC,
# MPIFC, CFLAGS (-O2), FFLAGS (-O2). Raw outputs go to $BUILD/runs.log.
# Exit status 1 when a run fails or a checksum differs from the sequential one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
apps=$root/testsuite/apps
tgt=${CARGO_TARGET_DIR:-$root/target}
XMPC=${XMPC:-$tgt/release/xmpc}
[[ -x $XMPC ]] || { echo "no xmpc driver at $XMPC (cargo build --release -p xmpc -p xmpc-rt, or set XMPC)" >&2; exit 2; }
if [[ -n "${QUICK:-}" ]]; then
    N=${N:-3} LAPLACE_N=${LAPLACE_N:-256} LAPLACE_ITER=${LAPLACE_ITER:-100}
    HIMENO_SIZE=${HIMENO_SIZE:-SSMALL} HIMENO_NN=${HIMENO_NN:-20} NHALO=${NHALO:-50}
fi
N=${N:-5}
LAPLACE_N=${LAPLACE_N:-2048}
LAPLACE_ITER=${LAPLACE_ITER:-1000}
HIMENO_SIZE=${HIMENO_SIZE:-MIDDLE}
HIMENO_NN=${HIMENO_NN:-100}
NHALO=${NHALO:-200}
LANGS=${LANGS:-c f}
NPS=${NPS:-1 2}
BINDS=${BINDS:-none core}
APPS=${APPS:-lap him}
MPIEXEC=${MPIEXEC:-mpiexec}
CC=${CC:-cc} MPICC=${MPICC:-mpicc} FC=${FC:-gfortran} MPIFC=${MPIFC:-mpif90}
CFLAGS=${CFLAGS:--O2} FFLAGS=${FFLAGS:--O2}
BUILD=${BUILD:-$tgt/bench-apps-table}
mkdir -p "$BUILD"
log=$BUILD/runs.log
: > "$log"
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "# apps table: $(date -u +%FT%TZ), $(nproc) CPUs, $($MPIEXEC --version 2>&1 | grep -m1 -i version | tr -s ' ')"
echo "# xmpc: $XMPC; C: $CC $CFLAGS; Fortran: $FC $FFLAGS; median of N=$N interleaved rounds"
echo "# Laplace ${LAPLACE_N}^2 x $LAPLACE_ITER; Himeno $HIMENO_SIZE x $HIMENO_NN"
echo "# load average before: $(load)"

# ---- build ----------------------------------------------------------------------
b() { echo "+ $*" >> "$log"; "$@" >> "$log" 2>&1 || { echo "build failed: $*" >&2; tail -20 "$log" >&2; exit 1; }; }
L="-DNX=$LAPLACE_N -DNY=$LAPLACE_N" H="-DSIZE_$HIMENO_SIZE -I$apps/himeno"
for lang in $LANGS; do
    if [[ $lang == c ]]; then
        SEQ="$CC $CFLAGS" PAR="$MPICC $CFLAGS" X="$XMPC $CFLAGS"
        lap=(laplace_seq.c laplace_mpi.c laplace_xmp_rows.c laplace_xmp_2d.c)
        him=(himeno_seq.c himeno_mpi.c himeno_xmp_1d.c himeno_xmp_2d.c)
    else
        SEQ="$FC $FFLAGS" PAR="$MPIFC $FFLAGS" X="$XMPC $FFLAGS"
        lap=(laplace_seq.F90 laplace_mpi.f90 laplace_xmp_1d.F laplace_xmp_2d.F90)
        him=(himeno_seq.F90 himeno_mpi.F90 himeno_xmp_1d.F90 himeno_xmp_2d.F90)
    fi
    d=$BUILD/$lang
    mkdir -p "$d"
    [[ " $APPS " == *" lap "* ]] && {
        b $SEQ $L -o "$d/lap.seq" "$apps/laplace/${lap[0]}"
        b $PAR -o "$d/lap.mpi" "$apps/laplace/${lap[1]}"
        b $X $L -o "$d/lap.xmp1" "$apps/laplace/${lap[2]}"
        for np in $NPS; do b $X $L -DPX=$np -o "$d/lap.xmp2.$np" "$apps/laplace/${lap[3]}"; done
    }
    [[ " $APPS " == *" him "* ]] && {
        b $SEQ $H -o "$d/him.seq" "$apps/himeno/${him[0]}"
        b $PAR $H -o "$d/him.mpi" "$apps/himeno/${him[1]}"
        b $X $H -o "$d/him.xmp1" "$apps/himeno/${him[2]}"
        for np in $NPS; do b $X $H -DPJ=$np -o "$d/him.xmp2.$np" "$apps/himeno/${him[3]}"; done
    }
done

# ---- configurations: key|np|bind|command ------------------------------------------
# key = lang.app.version.decomposition; seq runs under mpiexec -n 1 too (same binding).
cfgs=()
for lang in $LANGS; do
    d=$BUILD/$lang
    for bind in $BINDS; do
        for app in $APPS; do
            if [[ $app == lap ]]; then
                cfgs+=("$lang.lap.seq.-|1|$bind|$d/lap.seq $LAPLACE_ITER")
                for np in $NPS; do
                    cfgs+=("$lang.lap.mpi.contig|$np|$bind|$d/lap.mpi $LAPLACE_N $LAPLACE_N $LAPLACE_ITER 1 $NHALO")
                    cfgs+=("$lang.lap.xmp.contig|$np|$bind|$d/lap.xmp1 $LAPLACE_ITER $NHALO")
                    cfgs+=("$lang.lap.mpi.strided|$np|$bind|$d/lap.mpi $LAPLACE_N $LAPLACE_N $LAPLACE_ITER $np $NHALO")
                    cfgs+=("$lang.lap.xmp.strided|$np|$bind|$d/lap.xmp2.$np $LAPLACE_ITER $NHALO")
                done
            else
                cfgs+=("$lang.him.seq.-|1|$bind|$d/him.seq $HIMENO_NN")
                for np in $NPS; do
                    cfgs+=("$lang.him.mpi.contig|$np|$bind|$d/him.mpi $HIMENO_NN 1")
                    cfgs+=("$lang.him.xmp.contig|$np|$bind|$d/him.xmp1 $HIMENO_NN")
                    cfgs+=("$lang.him.mpi.strided|$np|$bind|$d/him.mpi $HIMENO_NN $np")
                    cfgs+=("$lang.him.xmp.strided|$np|$bind|$d/him.xmp2.$np $HIMENO_NN")
                done
            fi
        done
    done
done

# ---- run: N rounds over all configurations ------------------------------------------
declare -A T H1 C
fail=0
for ((r = 1; r <= N; r++)); do
    echo "round $r/$N (load $(load)) ..." >&2
    for c in "${cfgs[@]}"; do
        IFS='|' read -r key np bind cmd <<<"$c"
        id="$key|$np|$bind"
        # shellcheck disable=SC2086
        if ! out=$(timeout 600 $MPIEXEC -bind-to "$bind" -n "$np" $cmd 2>&1); then
            echo "FAILED: $MPIEXEC -bind-to $bind -n $np $cmd" >&2; echo "$out" | tail -5 >&2; fail=1; continue
        fi
        { echo "== round $r $id load $(load): $cmd"; echo "$out"; } >> "$log"
        T[$id]+="$(awk '$1=="time"{print $2}' <<<"$out") "
        H1[$id]+="$(awk '$1=="halo1"{print $2}' <<<"$out") "
        C[$id]=$(awk '$1=="checksum"{print $2}' <<<"$out")
    done
done

med() { tr ' ' '\n' <<<"$1" | awk 'NF' | sort -g | awk '{a[NR]=$1} END{if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a != "-" && b != "-" && b > 0) printf "%.3f", a / b; else printf "-" }'; }
same() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a == "" || b == "") { print "missing"; exit } d = a - b; if (d < 0) d = -d; s = b < 0 ? -b : b; print (d <= 1e-6 * s + 1e-12) ? "ok" : "MISMATCH" }'; }

echo
printf '| %-4s | %-7s | %-2s | %-4s | %-18s | %10s | %6s | %6s | %-8s |\n' lang app np bind "version" "time s" "/seq" "/MPI" checksum
printf '|------|---------|----|------|--------------------|------------|--------|--------|----------|\n'
for lang in $LANGS; do
    for app in $APPS; do
        name=$([[ $app == lap ]] && echo Laplace || echo Himeno)
        for bind in $BINDS; do
            s=$(med "${T[$lang.$app.seq.-|1|$bind]:-}")
            sc=${C[$lang.$app.seq.-|1|$bind]:-}
            printf '| %-4s | %-7s | %-2s | %-4s | %-18s | %10s | %6s | %6s | %-8s |\n' "$lang" "$name" 1 "$bind" sequential "$s" 1.000 - ref
            for np in $NPS; do
                for dec in contig strided; do
                    m=$(med "${T[$lang.$app.mpi.$dec|$np|$bind]:-}")
                    for v in mpi xmp; do
                        id="$lang.$app.$v.$dec|$np|$bind"
                        t=$(med "${T[$id]:-}")
                        ok=$(same "${C[$id]:-}" "$sc")
                        [[ $ok == ok ]] || fail=1
                        printf '| %-4s | %-7s | %-2s | %-4s | %-18s | %10s | %6s | %6s | %-8s |\n' "$lang" "$name" "$np" "$bind" \
                            "$v $dec" "$t" "$(ratio "$t" "$s")" "$(ratio "$t" "$m")" "$ok"
                    done
                done
            done
        done
    done
done
if [[ " $APPS " == *" lap "* ]]; then
    echo
    echo "Isolated halo exchange (Laplace, median of $NHALO each after a barrier, then median of rounds), microseconds:"
    for lang in $LANGS; do
        for np in $NPS; do
            [[ $np == 1 ]] && continue
            for dec in contig strided; do
                line="  $lang np=$np $dec:"
                for bind in $BINDS; do
                    for v in mpi xmp; do
                        h=$(med "${H1[$lang.lap.$v.$dec|$np|$bind]:-}")
                        line+=" $v/$bind $(awk -v h="$h" 'BEGIN{ if (h == "-") print "-"; else printf "%.2f", h * 1e6 }')"
                    done
                done
                echo "$line"
            done
        done
    done
fi
echo
echo "# load average after: $(load) (timings are only comparable on an otherwise idle machine)"
exit $fail
