//! Located runtime errors: `[rank N] xmpc runtime error: FILE:LINE: TEXT: WHAT`,
//! then MPI_Abort(…, 1) (after a short delay so the launcher forwards the text). Panics never cross the C ABI: `guard` turns them into
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

fn message(loc: *const XmpcLoc, what: &str) -> String {
    let rank = crate::state::world_rank();
    // SAFETY: loc is NULL or points to a static xmpc_loc.
    let (file, line, text) = match unsafe { loc.as_ref() } {
        Some(l) => (cstr(l.file), l.line, cstr(l.text)),
        None => ("?".into(), 0, "?".into()),
    };
    format!("[rank {rank}] xmpc runtime error: {file}:{line}: {text}: {what}\n")
}

fn print(msg: &str) {
    // one write, so lines from several ranks do not interleave
    let mut e = std::io::stderr().lock();
    let _ = std::io::Write::write_all(&mut e, msg.as_bytes());
    let _ = std::io::Write::flush(&mut e);
    // SAFETY: fflush(NULL): the program's own buffered output goes out first.
    unsafe { ffi::xs_flush() };
}

/// How long an aborting rank waits before MPI_Abort. The text is in the pipe to the
/// launcher's proxy when the write returns, but MPI_Abort makes the launcher kill the
/// job, and a proxy that handles the abort before it has read the pipe drops the text
/// (seen with MPICH's hydra: 2-4 runs in 30 lost the message). `XMPC_ABORT_DELAY_MS`
/// overrides it.
fn abort_delay() -> std::time::Duration {
    let ms = std::env::var("XMPC_ABORT_DELAY_MS").ok().and_then(|v| v.trim().parse::<u64>().ok()).unwrap_or(300);
    std::time::Duration::from_millis(ms)
}

/// Aborts the whole job with `code` (MPI_Abort) once the launcher has had time to
/// forward what this process just wrote to stderr ([`abort_delay`]); exits with `code`
/// when MPI is not running. Every error path that prints and then aborts ends here,
/// the C ones too (libcaf's errors and ERROR STOP, coarray.c's runtime errors).
#[no_mangle]
pub extern "C" fn xmpc_rt_abort(code: c_int) -> ! {
    // SAFETY: plain queries / abort; exit below if MPI is not up.
    unsafe {
        if ffi::xs_mpi_active() != 0 {
            std::thread::sleep(abort_delay());
            ffi::xs_abort(code);
        }
    }
    std::process::exit(code)
}

/// Prints the located error, gives the launcher time to forward it, and aborts
/// the whole job (MPI_Abort, status 1); exits with 1 when MPI is not running.
pub fn fatal(loc: *const XmpcLoc, what: &str) -> ! {
    print(&message(loc, what));
    xmpc_rt_abort(1)
}

/// An error that every executing node detects identically at the same point (e.g. a
/// node set whose size differs from the number of processes). When the executing
/// nodes are all the processes, the first of them prints the error, all finalize MPI
/// and exit with status 1: nothing is killed, so the text always reaches the
/// launcher's stderr. Otherwise (inside a task) as `fatal`.
pub fn fatal_all(loc: *const XmpcLoc, what: &str) -> ! {
    let e = crate::state::exec();
    let world = crate::state::with(|s| s.world_size) as usize;
    // SAFETY: plain query.
    if e.world.len() == world && world > 0 && unsafe { ffi::xs_mpi_active() } != 0 {
        if e.rank == 0 {
            print(&message(loc, what));
        } else {
            // SAFETY: fflush(NULL).
            unsafe { ffi::xs_flush() };
        }
        crate::finalize_handles();
        // SAFETY: every process of the job gets here (identical detection).
        unsafe { ffi::xs_finalize() };
        std::process::exit(1)
    }
    fatal(loc, what)
}

/// Runs `f`, reporting a Rust panic as a located runtime error.
pub fn guard<R>(loc: *const XmpcLoc, f: impl FnOnce() -> R) -> R {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(e) => {
            let msg = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
            fatal(loc, &format!("internal error: {msg}"))
        }
    }
}
