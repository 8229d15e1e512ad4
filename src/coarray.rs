//! Fortran coarrays (XMP local view, docs/local-view.md): a Fortran file that uses
//! coarray syntax is compiled with `gfortran -fcoarray=lib`, and a program whose
//! objects call gfortran's coarray ABI (`_gfortran_caf_*`) is linked with
//! OpenCoarrays' `libcaf_mpich`, which shares MPI with the XMP runtime
//! (`runtime/xmp/csrc/caf_f.c` orders their MPI start and end).

use std::path::{Path, PathBuf};
use std::process::Command;

use xmpc_passes::xmp_f::coarray::uses_coarrays;

/// The `-fcoarray=` option for one translated Fortran file: `lib` when it uses
/// coarrays and the user gave no `-fcoarray=` of their own.
pub fn compile_flag(extra: &[String], text: &str, fixed: bool) -> Option<&'static str> {
    if extra.iter().any(|x| x.starts_with("-fcoarray=")) || !uses_coarrays(text, fixed) {
        return None;
    }
    Some("-fcoarray=lib")
}

/// True for an object or archive that calls gfortran's coarray ABI.
pub fn object_uses_coarrays(p: &Path) -> bool {
    let Ok(bytes) = std::fs::read(p) else { return false };
    let pat = b"_gfortran_caf_";
    bytes.windows(pat.len()).any(|w| w == pat)
}

/// Linker arguments of the coarray library when any object needs it:
/// `$XMPC_CAF_LIBS` (split at blanks), else `pkg-config --libs caf-mpich`
/// (Debian's `libcoarrays-mpich-dev`), else `-lcaf_mpich`.
pub fn link_libs(objs: &[PathBuf]) -> Vec<String> {
    if !objs.iter().any(|o| object_uses_coarrays(o)) {
        return vec![];
    }
    // count each image's coarray bytes for xmp_coarray.h (runtime/xmp/csrc/caf_f.c)
    let mut wrap = vec!["-Wl,--wrap=_gfortran_caf_register,--wrap=_gfortran_caf_deregister,--wrap=_gfortran_caf_sync_memory".to_string()];
    wrap.extend(libcaf());
    wrap
}

/// The libcaf linker arguments.
fn libcaf() -> Vec<String> {
    if let Some(v) = std::env::var("XMPC_CAF_LIBS").ok().filter(|v| !v.trim().is_empty()) {
        return v.split_whitespace().map(str::to_string).collect();
    }
    if let Ok(o) = Command::new("pkg-config").args(["--libs", "caf-mpich"]).output() {
        if o.status.success() {
            let v: Vec<String> = String::from_utf8_lossy(&o.stdout).split_whitespace().map(str::to_string).collect();
            if !v.is_empty() {
                return v;
            }
        }
    }
    vec!["-lcaf_mpich".into()]
}

/// A hint for a failed link of a coarray program.
pub const LINK_HINT: &str = "this program uses Fortran coarrays: xmpc links OpenCoarrays' libcaf_mpich (Debian: apt-get install libcoarrays-mpich-dev), or set XMPC_CAF_LIBS to the linker arguments of another libcaf for your MPI";
