# Spack package for xmpc (docs/install.md). Copy this folder into a Spack repository
# (`spack repo create myrepo && cp -r packaging/spack/xmpc myrepo/packages/`), point
# `git` at the repository you build from, then `spack install xmpc`.
#
# It builds with cargo and installs with ./install.sh --prefix, so the Spack prefix
# holds what `make install` puts there: drivers, runtime libraries, headers, man pages
# and completions. The drivers find their files from their own place, so the prefix
# needs no environment variable; XMPC_HOME is set anyway for copies of bin/xmpc.
# tests/install.rs runs this file's install() against a stand-in for spack.package.

from spack.package import *


class Xmpc(Package):
    """XcalableMP compiler for C and Fortran (xmpc, xmpcc, xmpf90) with a Rust
    runtime, and MPI performance-prediction tools (BSIM, MPIETE, NSIM, PSIM, MPIPROF)."""

    homepage = "https://example.invalid/xmpc"
    git = "https://example.invalid/xmpc.git"

    license("MIT OR Apache-2.0")

    version("main", branch="main")

    depends_on("rust@1.80:", type="build")
    depends_on("mpi")
    depends_on("pkgconfig", type="build")

    def setup_build_environment(self, env):
        # the runtime's C shims and the drivers use the MPI compiler wrappers
        env.set("XMPC_CC", self.spec["mpi"].mpicc)
        env.set("XMPC_FC", self.spec["mpi"].mpifc)

    def install(self, spec, prefix):
        bash = which("bash")
        bash("./install.sh", "--prefix", prefix, "--profile", "release")

    def setup_run_environment(self, env):
        env.set("XMPC_HOME", self.prefix)
        env.set("XMPC_CC", self.spec["mpi"].mpicc)
        env.set("XMPC_FC", self.spec["mpi"].mpifc)
