//! Builds `libxmpc_bsim_main.a` (the process `main` of a skeleton, csrc/bsim_main.c)
//! and, when `mpicc` is found, `libxmpc_bsim_mpi.a` (the `main` with both back
//! ends, csrc/bsim_mpi_main.c, compiled against the system mpi.h), and copies
//! them next to the other build outputs (target/<profile>/), where
//! `libxmpc_bsim.a` lands, so one link line finds them. Neither is linked into
//! the crate itself (no MPI symbol in libxmpc_bsim.a or the xmpc driver).

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=csrc/bsim_main.c");
    println!("cargo:rerun-if-changed=csrc/bsim_mpi_main.c");
    println!("cargo:rerun-if-changed=csrc/otf2_export.c");
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    // the OTF2 export (src/export.rs): compiled against Debian's libotf2-trace-dev
    // headers when present, the library loaded with dlopen when an export is asked for
    let mut otf2 = cc::Build::new();
    otf2.file("csrc/otf2_export.c").opt_level(2).warnings(true);
    let hdr = env::var("XMPC_OTF2_INCLUDE").unwrap_or_else(|_| "/usr/include".into());
    println!("cargo:rerun-if-env-changed=XMPC_OTF2_INCLUDE");
    if std::path::Path::new(&hdr).join("otf2/otf2.h").exists() {
        otf2.include(&hdr).define("XMPC_HAVE_OTF2", None);
    } else {
        println!("cargo:warning=otf2/otf2.h not found (install libotf2-trace-dev): BSIM's OTF2 export will report that it is missing");
    }
    otf2.compile("xmpc_bsim_otf2");
    cc::Build::new().file("csrc/bsim_main.c").opt_level(2).warnings(true).cargo_metadata(false).compile("xmpc_bsim_main");
    // OUT_DIR = target/<profile>/build/<pkg>-<hash>/out
    let profile_dir = out.ancestors().nth(3).map(PathBuf::from);
    let mut libs = vec!["libxmpc_bsim_main.a"];
    let mpi = xmpc_mpi_build::mpicc_flags("MPICC");
    match mpi.found.then_some(mpi.includes) {
        Some(inc) => {
            let mut b = cc::Build::new();
            b.file("csrc/bsim_mpi_main.c").opt_level(2).warnings(true).cargo_metadata(false);
            for i in inc {
                b.include(i);
            }
            b.compile("xmpc_bsim_mpi");
            libs.push("libxmpc_bsim_mpi.a");
        }
        None => println!("cargo:warning=mpicc not found: libxmpc_bsim_mpi.a (the mpi back end) is not built"),
    }
    if let Some(d) = profile_dir {
        for l in libs {
            // unlink first: a hardlinked copy (target/ dirs shared between work
            // trees) must be replaced, not written through into the other trees
            let _ = std::fs::remove_file(d.join(l));
            let _ = std::fs::copy(out.join(l), d.join(l));
        }
    }
}
