//! Compiles `csrc/shim.c` (the only code that sees `mpi.h`) into the
//! static library, so a translated program links with
//! `mpicc prog.c libxmpc_rt.a <native libs>`.
//!
//! MPI is found by asking `$MPICC` (default `mpicc`) for its flags:
//! `-show` (MPICH) or `--showme` (Open MPI).

use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=csrc/shim.c");
    println!("cargo:rerun-if-changed=csrc/shim_f.c");
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
    b.file("csrc/shim.c").file("csrc/shim_f.c").opt_level(2).warnings(true);
    let (mut dirs, mut libs) = (vec![], vec![]);
    for tok in show.split_whitespace() {
        if let Some(p) = tok.strip_prefix("-I") {
            b.include(p);
        } else if let Some(p) = tok.strip_prefix("-L") {
            dirs.push(p.to_string());
        } else if let Some(p) = tok.strip_prefix("-l") {
            libs.push(p.to_string());
        }
    }
    if libs.is_empty() {
        println!("cargo:warning=xmpc-rt: `{mpicc} -show` gave no MPI flags; assuming -lmpi");
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
