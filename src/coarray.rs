//! Fortran coarrays (XMP local view, docs/local-view.md): a Fortran file that uses
//! coarray syntax is compiled with `gfortran -fcoarray=lib`, and a program whose
//! objects call gfortran's coarray ABI (`_gfortran_caf_*`) is linked with xmpc's own
//! libcaf (in the runtime library, `runtime/lib/xmp/csrc/caf_lib.c`) when it provides
//! every entry point the objects use, else with OpenCoarrays' `libcaf_mpich`; both
//! share MPI with the XMP runtime (`runtime/lib/xmp/csrc/caf_f.c` orders their MPI start
//! and end).

use std::path::PathBuf;
use std::process::Command;

use xmpc_backends::fortran::coarray::uses_coarrays;

/// The `-fcoarray=` option for one translated Fortran file: `lib` when it uses
/// coarrays and the user gave no `-fcoarray=` of their own.
pub fn compile_flag(extra: &[String], text: &str, fixed: bool) -> Option<&'static str> {
    if extra.iter().any(|x| x.starts_with("-fcoarray=")) || !uses_coarrays(text, fixed) {
        return None;
    }
    Some("-fcoarray=lib")
}

/// The entry points of xmpc's own libcaf (`runtime/lib/xmp/csrc/caf_lib.c`,
/// `caf_xfer.c`, `caf_coll.c`), without the `_gfortran_caf_` prefix.
pub const OWN_LIBCAF: &[&str] = &[
    "init",
    "finalize",
    "this_image",
    "num_images",
    "register",
    "deregister",
    "sync_all",
    "sync_memory",
    "sync_images",
    "lock",
    "unlock",
    "event_post",
    "event_wait",
    "event_query",
    "atomic_define",
    "atomic_ref",
    "atomic_cas",
    "atomic_op",
    "stop_numeric",
    "stop_str",
    "error_stop",
    "error_stop_str",
    "send",
    "get",
    "sendget",
    "co_sum",
    "co_min",
    "co_max",
    "co_broadcast",
    "co_reduce",
];

/// The `_gfortran_caf_*` names (without the prefix) that appear in the objects.
pub fn caf_symbols(objs: &[PathBuf]) -> std::collections::BTreeSet<String> {
    let pat = b"_gfortran_caf_";
    let mut out = std::collections::BTreeSet::new();
    for o in objs {
        let Ok(bytes) = std::fs::read(o) else { continue };
        let mut i = 0;
        while i + pat.len() <= bytes.len() {
            if &bytes[i..i + pat.len()] == pat {
                let rest = &bytes[i + pat.len()..];
                let n = rest.iter().take_while(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || **b == b'_').count();
                if n > 0 {
                    out.insert(String::from_utf8_lossy(&rest[..n]).into_owned());
                }
                i += pat.len() + n;
            } else {
                i += 1;
            }
        }
    }
    out
}

/// False when the link can only use an external libcaf (`$XMPC_CAF=opencoarrays` or
/// `$XMPC_CAF_LIBS`): the translator then refuses what only xmpc's libcaf does
/// (coarrays in a `task`, XMP0450).
pub fn own_libcaf_possible() -> bool {
    std::env::var("XMPC_CAF").ok().as_deref() != Some("opencoarrays") && !std::env::var("XMPC_CAF_LIBS").is_ok_and(|v| !v.trim().is_empty())
}

/// The marks of a translated task body that uses coarrays (`xmpf_caf_in_task`,
/// backends/src/fortran/mod.rs) in the objects: `XMP0450:FILE:LINE:COL` each. Such an
/// object needs xmpc's libcaf (its images follow the task).
pub fn own_libcaf_marks(objs: &[PathBuf]) -> Vec<String> {
    let pat = b"xmpc-own-libcaf:";
    let mut out = vec![];
    for o in objs {
        let Ok(bytes) = std::fs::read(o) else { continue };
        let mut i = 0;
        while i + pat.len() <= bytes.len() {
            if &bytes[i..i + pat.len()] == pat {
                let rest = &bytes[i + pat.len()..];
                let n = rest.iter().take(400).take_while(|&&b| b != b';' && (0x20..0x7f).contains(&b)).count();
                if rest.get(n) == Some(&b';') {
                    let m = String::from_utf8_lossy(&rest[..n]).into_owned();
                    if !out.contains(&m) {
                        out.push(m);
                    }
                }
                i += pat.len() + n;
            } else {
                i += 1;
            }
        }
    }
    out
}

/// Which coarray library a link uses.
#[derive(Debug, PartialEq, Eq)]
pub enum Libcaf {
    /// No object calls the coarray ABI.
    None,
    /// xmpc's own (in `libxmpc_rt.a`, reached through `--wrap`).
    Own,
    /// OpenCoarrays (or `$XMPC_CAF_LIBS`); the names xmpc's own lacks, when that was the reason.
    External(Vec<String>),
}

/// The choice: `$XMPC_CAF_LIBS` set → that library; `$XMPC_CAF=opencoarrays` →
/// OpenCoarrays; otherwise xmpc's own when it provides every referenced entry point
/// (`$XMPC_CAF=xmpc` makes a missing one an error), else OpenCoarrays.
pub fn choose(objs: &[PathBuf]) -> Result<Libcaf, String> {
    let used = caf_symbols(objs);
    if used.is_empty() {
        return Ok(Libcaf::None);
    }
    let choice = choose_by_symbols(&used)?;
    let marks = own_libcaf_marks(objs);
    if let (Libcaf::External(missing), Some(first)) = (&choice, marks.first()) {
        // coarrays in a task need xmpc's libcaf: never link them with another one
        let (code, at) = first.split_once(':').unwrap_or(("XMP0450", first));
        let why = if missing.is_empty() {
            "XMPC_CAF=opencoarrays or XMPC_CAF_LIBS asks for another libcaf".to_string()
        } else {
            format!(
                "xmpc's libcaf does not provide {} (used by the program), so OpenCoarrays would be linked",
                missing.iter().map(|m| format!("_gfortran_caf_{m}")).collect::<Vec<_>>().join(", ")
            )
        };
        let more = if marks.len() > 1 { format!(" (and {} more task bodies)", marks.len() - 1) } else { String::new() };
        return Err(format!(
            "{at}: error[{code}]: coarray feature inside a `task` body{more}: its images are the task's nodes only with xmpc's libcaf, but {why}; move the coarray statements out of the task"
        ));
    }
    Ok(choice)
}

fn choose_by_symbols(used: &std::collections::BTreeSet<String>) -> Result<Libcaf, String> {
    let missing: Vec<String> = used.iter().filter(|s| !OWN_LIBCAF.contains(&s.as_str())).cloned().collect();
    let forced = std::env::var("XMPC_CAF").unwrap_or_default();
    if std::env::var("XMPC_CAF_LIBS").is_ok_and(|v| !v.trim().is_empty()) {
        return Ok(Libcaf::External(vec![]));
    }
    match forced.as_str() {
        "opencoarrays" => Ok(Libcaf::External(vec![])),
        "xmpc" if !missing.is_empty() => Err(format!(
            "XMPC_CAF=xmpc, but xmpc's libcaf does not provide {} (used by the program): unset XMPC_CAF to link OpenCoarrays",
            missing.iter().map(|m| format!("_gfortran_caf_{m}")).collect::<Vec<_>>().join(", ")
        )),
        "" | "auto" | "xmpc" => Ok(if missing.is_empty() { Libcaf::Own } else { Libcaf::External(missing) }),
        other => Err(format!("XMPC_CAF={other}: expected `xmpc`, `opencoarrays` or `auto`")),
    }
}

/// Linker arguments of the coarray library when any object needs it (see [`choose`]).
pub fn link_libs(objs: &[PathBuf]) -> Result<Vec<String>, String> {
    match choose(objs)? {
        Libcaf::None => Ok(vec![]),
        Libcaf::Own => {
            let wraps: Vec<String> = OWN_LIBCAF.iter().map(|n| format!("--wrap=_gfortran_caf_{n}")).collect();
            Ok(vec![format!("-Wl,{}", wraps.join(","))])
        }
        Libcaf::External(missing) => {
            if !missing.is_empty() {
                eprintln!(
                    "xmpc: note: linking OpenCoarrays: xmpc's libcaf does not provide {}",
                    missing.iter().map(|m| format!("_gfortran_caf_{m}")).collect::<Vec<_>>().join(", ")
                );
            }
            // count each image's coarray bytes for xmp_coarray.h (runtime/lib/xmp/csrc/caf_f.c)
            let mut wrap = vec!["-Wl,--wrap=_gfortran_caf_register,--wrap=_gfortran_caf_deregister,--wrap=_gfortran_caf_sync_memory".to_string()];
            wrap.extend(libcaf());
            Ok(wrap)
        }
    }
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
pub const LINK_HINT: &str = "this program uses Fortran coarrays that xmpc's own libcaf does not cover: xmpc links OpenCoarrays' libcaf_mpich (Debian: apt-get install libcoarrays-mpich-dev), or set XMPC_CAF_LIBS to the linker arguments of another libcaf for your MPI";
