#!/usr/bin/env bash
# End-to-end demo: build xmpc and its runtime, compile an XcalableMP C program into an
# MPI executable, run it on 1, 2 and 4 processes and compare with plain sequential C;
# then the front end on its own (directives, IR, a diagnostic).
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v mpicc >/dev/null 2>&1 || ! command -v gfortran >/dev/null 2>&1; then
  echo "demo: installing MPICH and gfortran"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends mpich libmpich-dev gfortran >/dev/null
fi
echo "== building xmpc and the runtime (release)"
cargo build --release -q -p xmpc -p xmpc-rt
x=target/release/xmpc
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
app=testsuite/apps/laplace

echo; echo "== xmpc laplace_xmp_2d.c -o laplace   (XMP C: 2-D block, shadow, reflect, reduction)"
$x -O2 -DNX=256 -DNY=256 -DPX=2 "$app/laplace_xmp_2d.c" -o "$out/laplace" --keep
cc -O2 -DNX=256 -DNY=256 -o "$out/laplace_seq" "$app/laplace_seq.c"
echo "   translated source kept beside the input's name: $(ls "$app"/*.xmpc.c 2>/dev/null | head -n1 || true)"
rm -f "$app"/*.xmpc.c
echo "-- sequential C:"; "$out/laplace_seq" 200
for np in 2; do
  echo "-- mpiexec -n $np ./laplace:"; mpiexec -n $np "$out/laplace" 200
done

echo; echo "== directives found in an XMP C program and a fixed-form Fortran program"
$x testsuite/corpus/c/laplace1d_round.c --emit=directives | grep -v '^ ' | head -n 6
$x testsuite/corpus/f/cg_nas.f --emit=directives | grep -v '^ ' | head -n 4

echo; echo "== the IR as XcodeML-like XML (first lines)"
$x testsuite/corpus/c/laplace1d_round.c --emit=xcodeml | head -n 8

echo; echo "== a directive error: located diagnostic, exit status 1, no output file"
sed 's/distribute t(block/distribute t(blok/' testsuite/corpus/c/laplace1d_round.c > "$out/bad.c"
set +e
$x "$out/bad.c" -o "$out/bad"
rc=$?
set -e
echo "exit status $rc; output written: $([ -e "$out/bad" ] && echo yes || echo no)"
