//! Where the driver's files are (docs/install.md). An installation made by
//! `./install.sh --prefix DIR` is found from the executable itself (`DIR/bin/xmpc` →
//! `DIR`) or `$XMPC_HOME`, so it holds no path of the source tree and still works
//! after DIR is moved:
//!
//! | files | installed | source tree (a cargo build) |
//! |---|---|---|
//! | libxmpc_rt.a, libxmpc_bsim*.a, libxmpc_mpiete.a | `DIR/lib/xmpc/` | `target/PROFILE/` (and `deps/`) |
//! | xmpc_rt.h, xmp.h, xmp_lib.h, ... | `DIR/include/` (as Omni's `OMNI_HOME/include`) | `runtime/lib/xmp/include/` |
//! | lmpi.h, lmpif.h, lmpi.f90 (BSIM) | `DIR/include/bsim/` | `runtime/tools/bsim/include/` |

use std::path::{Path, PathBuf};

/// The installation's root: `$XMPC_HOME`, else the folder above the executable's when
/// it holds `lib/xmpc/libxmpc_rt.a` (an installed xmpc); `None` in a source tree.
pub fn home() -> Option<PathBuf> {
    if let Some(h) = std::env::var_os("XMPC_HOME").filter(|h| !h.is_empty()) {
        return Some(PathBuf::from(h));
    }
    let exe = std::env::current_exe().ok()?;
    let root = exe.parent()?.parent()?;
    root.join("lib/xmpc/libxmpc_rt.a").is_file().then(|| root.to_path_buf())
}

/// The installation's library folder (`HOME/lib/xmpc`).
pub fn lib_dir() -> Option<PathBuf> {
    home().map(|h| h.join("lib/xmpc"))
}

/// A folder of the source tree the executable was built in (`target/PROFILE/xmpc` →
/// the tree's `rel`), found from the executable; the build's own tree last.
fn source_tree(rel: &str) -> PathBuf {
    if let Ok(exe) = std::env::current_exe() {
        if let Some(d) = exe.ancestors().skip(1).take(4).map(|a| a.join(rel)).find(|d| d.is_dir()) {
            return d;
        }
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The runtime's include folder: `$XMPC_INCLUDE`, `HOME/include`, the source tree's.
pub fn include_dir() -> PathBuf {
    match std::env::var_os("XMPC_INCLUDE") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => match home() {
            Some(h) => h.join("include"),
            None => source_tree("runtime/lib/xmp/include"),
        },
    }
}

/// LMPI's headers: `$XMPC_BSIM_INCLUDE`, `HOME/include/bsim`, the source tree's.
pub fn bsim_include() -> PathBuf {
    match std::env::var_os("XMPC_BSIM_INCLUDE") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => match home() {
            Some(h) => h.join("include/bsim"),
            None => source_tree("runtime/tools/bsim/include"),
        },
    }
}
