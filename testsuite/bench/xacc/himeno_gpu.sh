#!/bin/sh
# Himeno (XcalableACC, testsuite/corpus/c/himeno_xacc.c) with GCC's nvptx offload on a
# machine with an NVIDIA GPU: builds it with `xmpc --acc=nvptx`, checks the PTX is
# embedded, runs it on 1 and 2 processes with GOMP_DEBUG=1 (libgomp says whether the
# CUDA plugin took the kernels or the host fallback ran them) and prints PASS/ERROR
# from the program's own check against the sequential kernel. The host-fallback
# build runs beside it for the timing comparison.
#
#   testsuite/bench/xacc/himeno_gpu.sh [OFFLOAD_ROOT]
#
# OFFLOAD_ROOT: a folder where gcc-12-offload-nvptx, nvptx-tools and
# libgomp-plugin-nvptx1 were unpacked (`apt-get download ...; dpkg -x PKG.deb ROOT`);
# default: the installed packages (/). XMPC_ACC_ISA picks the PTX ISA (sm_80; an
# H100 JIT-compiles it for sm_90). Needs libcuda.so.1 at run time for the GPU.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
xmpc=${XMPC:-$top/target/release/xmpc}
root=${1:-/}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc="$tmp/mpicc-offload"
cat > "$cc" <<EOS
#!/bin/sh
PATH=$root/usr/bin:\$PATH exec ${XMPC_CC:-mpicc} -B$root/usr/lib/gcc/x86_64-linux-gnu/12/ "\$@"
EOS
chmod +x "$cc"
src=$top/testsuite/corpus/c/himeno_xacc.c
XMPC_CC=$cc "$xmpc" -O2 --acc=nvptx "$src" -o "$tmp/himeno_nvptx" 2>&1 | grep -v 'DT_TEXTREL\|__offload_vars_end' || true
"$xmpc" -O2 --acc=host "$src" -o "$tmp/himeno_host"
echo "PTX targets embedded: $(strings "$tmp/himeno_nvptx" | grep -c '^\.target sm_' || true)"
if [ -e /usr/lib/x86_64-linux-gnu/libcuda.so.1 ] || ldconfig -p 2>/dev/null | grep -q libcuda.so.1; then
  echo "libcuda.so.1 found: kernels should run on the GPU"
else
  echo "libcuda.so.1 not found: the offload build falls back to the host"
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
for np in 1 2; do
  for b in nvptx host; do
    start=$(date +%s.%N)
    out=$(LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}" GOMP_DEBUG=1 mpiexec -n $np "$tmp/himeno_$b" 2>&1)
    end=$(date +%s.%N)
    dev=$(printf '%s\n' "$out" | grep -c 'nvptx\|CUDA' || true)
    res=$(printf '%s\n' "$out" | grep -E '^(PASS|ERROR)' | head -1)
    printf '%-6s np=%d  %-40s %6.2f s  (libgomp lines naming CUDA/nvptx: %s)\n' "$b" "$np" "$res" "$(echo "$end - $start" | bc)" "$dev"
  done
done
