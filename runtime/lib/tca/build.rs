//! Compiles `csrc/tca_shim.c` (the only code of this crate that sees `mpi.h`),
//! as runtime/lib/xmp does with its shim: MPI flags from `$MPICC -show`.

fn main() {
    println!("cargo:rerun-if-changed=csrc/tca_shim.c");
    let mpi = xmpc_mpi_build::mpicc_flags("MPICC");
    let mut b = cc::Build::new();
    b.file("csrc/tca_shim.c").opt_level(2).warnings(true);
    for i in &mpi.includes {
        b.include(i);
    }
    let (dirs, mut libs) = (mpi.libdirs, mpi.libs);
    if libs.is_empty() {
        println!("cargo:warning=xmpc-tca: `{} -show` gave no MPI flags; assuming -lmpi", mpi.mpicc);
        libs.push("mpi".into());
    }
    b.compile("xmpc_tca_shim");
    for d in dirs {
        println!("cargo:rustc-link-search=native={d}");
    }
    for l in libs {
        println!("cargo:rustc-link-lib=dylib={l}");
    }
}
