//! Compiles the C runtime (`csrc/`) into `libxmpc_mpiete.a` against the system
//! `mpi.h`; MPI's include directory comes from `$MPICC -show` (default `mpicc`;
//! `--showme` for Open MPI).

fn main() {
    for f in ["csrc/mpiete.c", "csrc/mpiete_f.c", "csrc/mpiete.h", "csrc/mpiete_int.h"] {
        println!("cargo:rerun-if-changed={f}");
    }
    let mpi = xmpc_mpi_build::mpicc_flags("MPICC");
    let mut b = cc::Build::new();
    b.file("csrc/mpiete.c").file("csrc/mpiete_f.c").opt_level(2).warnings(true);
    for i in &mpi.includes {
        b.include(i);
    }
    b.compile("xmpc_mpiete_c");
}
