#!/usr/bin/env bash
# Installs xmpc under a prefix (docs/install.md):
#
#   ./install.sh --prefix DIR [--profile release|debug] [--no-build] [--from BUILT]
#   make install PREFIX=DIR
#
# DIR/bin         xmpc, xmpcc, xmpf90, xmpc-prof-report, xmpc-nsim, bsimcc, bsimf90
# DIR/lib/xmpc    libxmpc_rt.a (the runtime programs link), libxmpc_bsim*.a,
#                 libxmpc_mpiete.a, libxmpc_prof.so
# DIR/include     xmpc_rt.h, xmp.h, xmp_lib.h, ... (as Omni's OMNI_HOME/include),
#                 mpiete.h; include/bsim: lmpi.h, lmpif.h, lmpi.f90
# DIR/share/man/man1, DIR/share/{bash-completion,zsh,fish}: man pages and completions
#
# The drivers find their files from their own place (DIR/bin/xmpc -> DIR) or
# $XMPC_HOME: the installation holds no path of the source tree and works after DIR
# is moved.
set -euo pipefail
cd "$(dirname "$0")"

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; }
prefix="" profile=release build=1 from=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a folder" >&2; exit 2; }; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --profile) [ $# -ge 2 ] || { echo "install.sh: --profile needs release or debug" >&2; exit 2; }; profile=$2; shift 2 ;;
    --profile=*) profile=${1#--profile=}; shift ;;
    --no-build) build=0; shift ;;
    # the built files are in BUILT (a cargo target/PROFILE folder); nothing is built
    --from) [ $# -ge 2 ] || { echo "install.sh: --from needs a folder" >&2; exit 2; }; from=$2; build=0; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option '$1' (see ./install.sh --help)" >&2; exit 2 ;;
  esac
done
[ -n "$prefix" ] || { echo "install.sh: --prefix DIR is required (see ./install.sh --help)" >&2; exit 2; }
case "$profile" in
  release) cargo_profile=release dir=release ;;
  debug|dev) cargo_profile=dev dir=debug ;;
  *) echo "install.sh: --profile $profile: expected release or debug" >&2; exit 2 ;;
esac
built="${from:-${CARGO_TARGET_DIR:-target}/$dir}"

if [ "$build" = 1 ]; then
  cargo build --locked --profile "$cargo_profile" \
    -p xmpc -p xmpc-rt -p xmpc-bsim -p xmpc-mpiete-rt -p xmpc-prof -p xmpc-prof-report -p xmpc-nsim
fi

bins=(xmpc xmpcc xmpf90 xmpc-prof-report xmpc-nsim)
libs=(libxmpc_rt.a libxmpc_bsim.a libxmpc_bsim_main.a libxmpc_bsim_mpi.a libxmpc_mpiete.a libxmpc_prof.so)
missing=()
for f in "${bins[@]}" "${libs[@]}"; do [ -f "$built/$f" ] || missing+=("$built/$f"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install.sh: not built: ${missing[*]} (run without --no-build)" >&2
  exit 1
fi

mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
install -d "$prefix/bin" "$prefix/lib/xmpc" "$prefix/include/bsim" "$prefix/share/man/man1" "$prefix/share/doc/xmpc"
for f in "${bins[@]}"; do install -m 755 "$built/$f" "$prefix/bin/$f"; done
# bsimcc / bsimf90: xmpc under another name (src/bsim_cc.rs)
ln -sf xmpc "$prefix/bin/bsimcc"
ln -sf xmpc "$prefix/bin/bsimf90"
for f in "${libs[@]}"; do install -m 644 "$built/$f" "$prefix/lib/xmpc/$f"; done
install -m 644 runtime/lib/xmp/include/*.h runtime/lib/mpiete-rt/csrc/mpiete.h "$prefix/include/"
install -m 644 runtime/tools/bsim/include/* "$prefix/include/bsim/"
install -m 644 README.md "$prefix/share/doc/xmpc/"
install -m 644 docs/*.md "$prefix/share/doc/xmpc/"
# man pages and completions from the command-line definitions (src/gendoc.rs)
"$prefix/bin/xmpc" --generate-man "$prefix/share/man/man1"
"$prefix/bin/xmpc" --generate-completions "$prefix/share"
echo "install.sh: installed under $prefix (add $prefix/bin to PATH)"
