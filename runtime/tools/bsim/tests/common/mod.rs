//! What the BSIM integration tests share: the test platform, its closed forms and
//! where cargo left the runtime archives.
#![allow(dead_code)] // each test file uses a part

use std::path::PathBuf;

pub const L: f64 = 2e-6; // latency of the test platform
pub const BW: f64 = 1e9; // bandwidth
pub const PLATFORM: &str = "name = \"test\"\n[network]\nlatency = 2e-6\nbandwidth = 1e9\n[overheads]\ntest = 1e-6\n[protocol]\neager_threshold = 65536\n";

/// Eager transfer time of a message on the test platform.
pub fn msg(bytes: u64) -> f64 {
    L + bytes as f64 / BW
}

pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1e-9)
}

/// target/<profile>/ (the test executable is in target/<profile>/deps/).
pub fn libdir() -> PathBuf {
    std::env::current_exe().unwrap().parent().unwrap().parent().unwrap().to_path_buf()
}

/// The newest `libxmpc_bsim-<hash>.a` cargo left in deps/ (not the main or mpi
/// archives), else target/<profile>/libxmpc_bsim.a.
pub fn staticlib() -> PathBuf {
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for e in std::fs::read_dir(libdir().join("deps")).unwrap().flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        if n.starts_with("libxmpc_bsim") && n.ends_with(".a") && !n.contains("main") && !n.contains("mpi") {
            let t = e.metadata().unwrap().modified().unwrap();
            if best.as_ref().is_none_or(|b| t > b.0) {
                best = Some((t, e.path()));
            }
        }
    }
    best.map(|b| b.1).unwrap_or_else(|| libdir().join("libxmpc_bsim.a"))
}
