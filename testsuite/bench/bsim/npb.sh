#!/usr/bin/env bash
# The NAS Parallel Benchmarks 3.3 (MPI) under BSIM and SimGrid SMPI, side by side.
#
#   testsuite/bench/bsim/npb.sh [KERNELS] [CLASSES] [NPS]
#   (defaults: "is ep cg mg ft lu" "S W" "4 16 64"; env NPB=path of the NPB3.3-MPI tree,
#    default ../shared/external/npb3.3-mpi beside the repository; MODES="compute nocompute hostoff")
#
# The tree is copied to a temporary directory (never into the repository) and
# built unmodified twice per kernel, class and process count: with
# MPICC="xmpc bsim cc" / MPIF77="xmpc bsim fc" (skeletons) and with smpicc /
# smpiff. Both run on the flat platform of flat.toml exported to SimGrid
# (`xmpc bsim platform --export-simgrid`, which also gives the smpirun flags).
# SMPI's Fortran compiler is smpiff: SimGrid 3.32's smpif90 names the object of a
# fixed-form `.f` file `.o` (it derives the name only from `.f90`/`.F90`), so NPB's
# `make` cannot find `timers.o`; smpiff compiles them.
#
#   compute    both charge the host CPU time of the code that runs
#              (SMPI smpi/simulate-computation:yes, host-speed 1 Gf on 1 Gf hosts,
#              cpu-threshold 1e-6; BSIM [compute] host, the same threshold)
#   nocompute  compute removed from both: SMPI smpi/simulate-computation:no,
#              BSIM --host-time off on skeletons built with --bsim-times=zero
#              (the skeleton lacks the compute: fast, but a kernel whose
#              communication depends on computed values, LU's convergence test
#              `rsdnm < tolrsd` in ssor.f, takes another path: LU stops after
#              one SSOR iteration instead of 50)
#   hostoff    the compute runs in both and is charged in neither: SMPI
#              smpi/simulate-computation:no, BSIM --host-time off on the
#              skeletons of `compute` (the same control flow as the program)
#
# REPS=N: each run N times (BSIM and SMPI alternating), medians printed (class S
# compute is a millisecond or two: one run of either moves by 10-30 % on a loaded host).
#
# Columns: predicted time of each, BSIM/SMPI - 1, host wall time of each and
# their ratio (SMPI/BSIM), peak RSS of each (/usr/bin/time -v), and whether
# each run verified (NPB's own check).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
KERNELS=${1:-"is ep cg mg ft lu"}
CLASSES=${2:-"S W"}
NPS=${3:-"4 16 64"}
MODES=${MODES:-"compute nocompute hostoff"}
REPS=${REPS:-1}
NPB=${NPB:-$root/../shared/external/npb3.3-mpi}
[ -d "$NPB" ] || { echo "npb.sh: no NPB3.3-MPI tree at $NPB (set NPB=)"; exit 2; }
# PROFILE=debug uses the debug build (predictions are the same; BSIM's wall times are not)
PROFILE=${PROFILE:-release}
T="${CARGO_TARGET_DIR:-$root/target}/$PROFILE"
(cd "$root" && if [ "$PROFILE" = release ]; then cargo build --release -q -p xmpc -p xmpc-bsim; else cargo build -q -p xmpc -p xmpc-bsim; fi) || exit 1
XMPC="$T/xmpc"
W=$(mktemp -d /tmp/npb-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
command -v smpirun >/dev/null || { echo "npb.sh: smpirun not found (Debian: libsimgrid-dev)"; exit 2; }

sed 's/^host = false/host = true/' "$here/flat.toml" >"$W/flat.toml"
"$XMPC" bsim platform "$W/flat.toml" --export-simgrid "$W/flat.xml" --np 1024 --hostfile "$W/hosts" >"$W/cfg" 2>/dev/null || exit 1
grep -v 'simulate-computation\|host-speed\|cpu-threshold' "$W/cfg" >"$W/cfg.base"
mapfile -t BASE <"$W/cfg.base"
SMPI_ON=(--cfg=smpi/simulate-computation:yes --cfg=smpi/host-speed:1e9f --cfg=smpi/cpu-threshold:1e-6)
SMPI_OFF=(--cfg=smpi/simulate-computation:no)

tree() { # name mpicc mpif77 -> a built copy of the tree in $W/name
  local d="$W/$1"
  [ -d "$d" ] && return
  cp -r "$NPB" "$d" && chmod -R u+w "$d" && mkdir -p "$d/bin"
  cat >"$d/config/make.def" <<EOF
MPIF77 = $3
FLINK = \$(MPIF77)
FMPI_LIB =
FMPI_INC =
FFLAGS = -O2 -fallow-argument-mismatch -fallow-invalid-boz
FLINKFLAGS = -O2
MPICC = $2
CLINK = \$(MPICC)
CMPI_LIB =
CMPI_INC =
CFLAGS = -O2
CLINKFLAGS = -O2
CC = cc -g
BINDIR = ../bin
RAND = randi8
EOF
}

build() { # tree kernel class np
  local d="$W/$1"
  [ -x "$d/bin/$2.$3.$4" ] && return 0
  (cd "$d" && make "$2" NPROCS="$4" CLASS="$3" >"$W/build.$1.$2.$3.$4.log" 2>&1) || { echo "# build failed: $1 $2.$3.$4 (see below)"; tail -5 "$W/build.$1.$2.$3.$4.log"; return 1; }
}

measure() { # out-prefix command... : predicted time, wall, rss, verified
  local p=$1
  shift
  /usr/bin/time -v -o "$p.time" "$@" >"$p.out" 2>"$p.err"
  echo $? >"$p.rc"
}

field() { awk -v k="$2" '$0 ~ k {print $NF}' "$1" | head -1; }
tosec() { awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else if (NF==2) print $1*60+$2; else print $1 }' <<<"$1"; }
median() { printf '%s\n' "$@" | grep . | sort -g | awk '{v[NR] = $0} END {if (NR) print v[int((NR + 1) / 2)]}'; }

tree bsim "$XMPC bsim cc" "$XMPC bsim fc"
tree bsimz "$XMPC bsim cc --bsim-times=zero" "$XMPC bsim fc --bsim-times=zero"
tree smpi smpicc smpiff

printf '%-6s %-5s %4s %-9s %14s %14s %9s %9s %9s %8s %9s %9s %s\n' kernel class np mode bsim_s smpi_s diff bsim_wall smpi_wall speedup bsim_MiB smpi_MiB verified
for k in $KERNELS; do
  for c in $CLASSES; do
    for np in $NPS; do
      build smpi "$k" "$c" "$np" || continue
      for mode in $MODES; do
        case $mode in
        compute) tb=bsim; ho=on; S=("${SMPI_ON[@]}") ;;
        hostoff) tb=bsim; ho=off; S=("${SMPI_OFF[@]}") ;;
        *) tb=bsimz; ho=off; S=("${SMPI_OFF[@]}") ;;
        esac
        build "$tb" "$k" "$c" "$np" || continue
        # REPS runs of each, alternating (both see the same load): the medians
        BT=() ST=() BW=() SW=()
        for _ in $(seq "$REPS"); do
          (cd "$W/$tb/bin" && measure "$W/b" "$XMPC" bsim run "./$k.$c.$np" -np "$np" --platform "$W/flat.xml" --hostfile "$W/hosts" --host-time "$ho")
          (cd "$W/smpi/bin" && measure "$W/s" smpirun -np "$np" -platform "$W/flat.xml" -hostfile "$W/hosts" "${BASE[@]}" "${S[@]}" \
            --cfg=smpi/display-timing:yes --log=root.thres:critical --log=smpi_utils.thres:info "./$k.$c.$np")
          BT+=("$(awk '/^predicted time:/ {print $3}' "$W/b.out")")
          ST+=("$(awk '/Simulated time:/ {for (i=1;i<=NF;i++) if ($i=="time:") print $(i+1)}' "$W/s.out" "$W/s.err" | head -1)")
          BW+=("$(tosec "$(field "$W/b.time" "Elapsed")")")
          SW+=("$(tosec "$(field "$W/s.time" "Elapsed")")")
        done
        bt=$(median "${BT[@]}"); st=$(median "${ST[@]}"); bw=$(median "${BW[@]}"); sw=$(median "${SW[@]}")
        bm=$(field "$W/b.time" "Maximum resident"); sm=$(field "$W/s.time" "Maximum resident")
        bv=$(grep -qiE "verification += +successful|verification successful" "$W/b.out" && echo ok || echo no)
        sv=$(grep -qiE "verification += +successful|verification successful" "$W/s.out" && echo ok || echo no)
        [ "$(cat "$W/b.rc")" = 0 ] || bv="exit$(cat "$W/b.rc")"
        [ "$(cat "$W/s.rc")" = 0 ] || sv="exit$(cat "$W/s.rc")"
        awk -v k="$k" -v c="$c" -v np="$np" -v m="$mode" -v bt="$bt" -v st="$st" -v bw="$bw" -v sw="$sw" -v bm="$bm" -v sm="$sm" -v v="$bv/$sv" 'BEGIN {
          d = (st + 0 > 0 && bt != "") ? sprintf("%+.2f%%", (bt - st) / st * 100) : "n/a";
          sp = (bw + 0 > 0) ? sprintf("%.1fx", sw / bw) : "n/a";
          printf "%-6s %-5s %4s %-9s %14s %14s %9s %9.2f %9.2f %8s %9.1f %9.1f %s\n", k, c, np, m, bt == "" ? "-" : bt, st == "" ? "-" : st, d, bw, sw, sp, bm / 1024, sm / 1024, v }'
        # (verified=no is expected with the compute removed)
        if [ "$bv" != ok ] && ! { [ "$bv" = no ] && [ "$mode" = nocompute ]; }; then
          echo "# bsim stderr:"
          tail -3 "$W/b.err"
        fi
      done
    done
  done
done
