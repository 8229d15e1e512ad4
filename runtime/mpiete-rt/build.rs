//! Compiles the C runtime (`csrc/`) into `libxmpc_mpiete.a` against the system
//! `mpi.h`; MPI's include directory comes from `$MPICC -show` (default `mpicc`;
//! `--showme` for Open MPI).

use std::env;
use std::process::Command;

fn main() {
    for f in ["csrc/mpiete.c", "csrc/mpiete_f.c", "csrc/mpiete.h", "csrc/mpiete_int.h"] {
        println!("cargo:rerun-if-changed={f}");
    }
    println!("cargo:rerun-if-env-changed=MPICC");
    let mpicc = env::var("MPICC").unwrap_or_else(|_| "mpicc".into());
    let mut show = String::new();
    for arg in ["-show", "--showme"] {
        if let Ok(o) = Command::new(&mpicc).arg(arg).output() {
            if o.status.success() {
                show = String::from_utf8_lossy(&o.stdout).into_owned();
                break;
            }
        }
    }
    let mut b = cc::Build::new();
    b.file("csrc/mpiete.c").file("csrc/mpiete_f.c").opt_level(2).warnings(true);
    for tok in show.split_whitespace() {
        if let Some(p) = tok.strip_prefix("-I") {
            b.include(p);
        }
    }
    b.compile("xmpc_mpiete_c");
}
