//! Compiles `csrc/shim.c` (the only code that sees `mpi.h`) into the
//! static library, so a translated program links with
//! `mpicc prog.c libxmpc_rt.a <native libs>`.
//!
//! MPI is found by asking `$MPICC` (default `mpicc`) for its flags:
//! `-show` (MPICH) or `--showme` (Open MPI).

fn main() {
    println!("cargo:rerun-if-changed=csrc/shim.c");
    println!("cargo:rerun-if-changed=csrc/shim_f.c");
    println!("cargo:rerun-if-changed=csrc/caf_f.c");
    println!("cargo:rerun-if-changed=csrc/coarray.c");
    for f in ["caf_lib.c", "caf_xfer.c", "caf_coll.c", "caf_lib.h"] {
        println!("cargo:rerun-if-changed=csrc/{f}");
    }
    println!("cargo:rerun-if-changed=include/xmpc_coarray.h");
    let mpi = xmpc_mpi_build::mpicc_flags("MPICC");
    let mut b = cc::Build::new();
    b.file("csrc/shim.c").file("csrc/shim_f.c").file("csrc/coarray.c").file("csrc/caf_f.c").opt_level(2).warnings(true);
    // xmpc's libcaf (docs/local-view.md): reached only through -Wl,--wrap
    b.file("csrc/caf_lib.c").file("csrc/caf_xfer.c").file("csrc/caf_coll.c");
    for i in &mpi.includes {
        b.include(i);
    }
    let (dirs, mut libs) = (mpi.libdirs, mpi.libs);
    if libs.is_empty() {
        println!("cargo:warning=xmpc-rt: `{} -show` gave no MPI flags; assuming -lmpi", mpi.mpicc);
        libs.push("mpi".into());
    }
    b.compile("xmpc_rt_shim");
    // For the rlib's own test binaries; a staticlib user links with mpicc.
    for d in dirs {
        println!("cargo:rustc-link-search=native={d}");
    }
    for l in libs {
        println!("cargo:rustc-link-lib=dylib={l}");
    }
}
