//! Located runtime errors: `[rank N] xmpc runtime error: FILE:LINE: TEXT: WHAT`,
//! then MPI_Abort(…, 1). Panics never cross the C ABI: `guard` turns them into
//! the same kind of error.

use crate::ffi;
use std::ffi::{c_char, c_int, CStr};

/// A directive's source location (`xmpc_loc` in C).
#[repr(C)]
pub struct XmpcLoc {
    pub file: *const c_char,
    pub line: c_int,
    /// The directive as written, e.g. "reflect (a)".
    pub text: *const c_char,
}

pub fn cstr(p: *const c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: non-null C strings from the translator are NUL-terminated.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

pub fn fatal(loc: *const XmpcLoc, what: &str) -> ! {
    let rank = crate::state::world_rank();
    // SAFETY: loc is NULL or points to a static xmpc_loc.
    let (file, line, text) = match unsafe { loc.as_ref() } {
        Some(l) => (cstr(l.file), l.line, cstr(l.text)),
        None => ("?".into(), 0, "?".into()),
    };
    // one write, so lines from several ranks do not interleave before the abort
    let msg = format!("[rank {rank}] xmpc runtime error: {file}:{line}: {text}: {what}\n");
    let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), msg.as_bytes());
    // SAFETY: aborting; if MPI is not up, fall through to exit.
    unsafe { ffi::xs_abort(1) };
    std::process::exit(1)
}

/// Runs `f`, reporting a Rust panic as a located runtime error.
pub fn guard<R>(loc: *const XmpcLoc, f: impl FnOnce() -> R) -> R {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(e) => {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            fatal(loc, &format!("internal error: {msg}"))
        }
    }
}
