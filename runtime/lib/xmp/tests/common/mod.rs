//! Helpers shared by the integration tests that link C/Fortran programs.

use std::path::PathBuf;

/// The newest libxmpc_rt*.a in target/<profile>/deps (where `cargo test`
/// builds it, with a hash) or one level up.
pub fn staticlib() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap().to_path_buf();
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for dir in [deps.clone(), deps.parent().unwrap().to_path_buf()] {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if n.starts_with("libxmpc_rt") && n.ends_with(".a") {
                let t = e.metadata().and_then(|m| m.modified()).unwrap();
                match &best {
                    Some((bt, _)) if *bt >= t => {}
                    _ => best = Some((t, e.path())),
                }
            }
        }
    }
    best.unwrap_or_else(|| panic!("libxmpc_rt*.a not found near {}", exe.display())).1
}
