//! Builds `libxmpc_bsim_main.a` (the process `main` of a skeleton, csrc/bsim_main.c)
//! and copies it next to the other build outputs (target/<profile>/), where
//! `libxmpc_bsim.a` lands, so one link line finds both.

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=csrc/bsim_main.c");
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    cc::Build::new()
        .file("csrc/bsim_main.c")
        .opt_level(2)
        .warnings(true)
        .cargo_metadata(false)
        .compile("xmpc_bsim_main");
    // OUT_DIR = target/<profile>/build/<pkg>-<hash>/out
    if let Some(profile_dir) = out.ancestors().nth(3) {
        let _ = std::fs::copy(out.join("libxmpc_bsim_main.a"), profile_dir.join("libxmpc_bsim_main.a"));
    }
}
