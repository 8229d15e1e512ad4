//! XcalableMP runtime: the C ABI of `include/xmpc_rt.h` over the system MPI.
//!
//! Single-threaded by contract (XMP nodes are MPI processes), so global state
//! lives in a thread-local. Objects handed to C (`xmpc_nodes` ...) are boxed and
//! never freed (XMP declarations live for the whole program), except arrays:
//! `xmpc_array_free` ends a function's local array (with its MPI windows).
//!
//! Every `extern "C"` function's safety contract is its documentation in the
//! generated header: pointers are NULL or valid for the stated counts.
#![allow(clippy::missing_safety_doc)]

mod array;
mod barrier;
mod check;
mod coarray;
mod dist;
mod dmap;
mod err;
mod ffi;
mod gmove;
mod inquiry;
mod intrinsic;
mod nodes;
mod reduce;
mod reduce_shadow;
mod reflect;
mod sched;
mod shm;
mod state;
mod task;
mod tca;
mod template;
mod xacc;
mod xmp;

pub use array::{xmpc_array, XmpcDim};
pub use err::XmpcLoc;
pub use gmove::XmpcSection;
pub use nodes::xmpc_nodes;
pub use sched::XmpcSched;
pub use template::xmpc_template;

/// The XMP-dev work-sharing runtime, linked in for its C ABI (`include/xmpc_dev.h`).
pub use xmpc_workshare;

use std::ffi::{c_char, c_int};

/// Distribution formats (`formats` of xmpc_distribute, `xmpc_dim.format`).
pub const XMPC_DIST_DUP: c_int = 0;
pub const XMPC_DIST_BLOCK: c_int = 1;
pub const XMPC_DIST_CYCLIC: c_int = 2;
pub const XMPC_DIST_GBLOCK: c_int = 3;

/// Element types of reductions.
pub const XMPC_TYPE_CHAR: c_int = 0;
pub const XMPC_TYPE_UCHAR: c_int = 1;
pub const XMPC_TYPE_SHORT: c_int = 2;
pub const XMPC_TYPE_USHORT: c_int = 3;
pub const XMPC_TYPE_INT: c_int = 4;
pub const XMPC_TYPE_UINT: c_int = 5;
pub const XMPC_TYPE_LONG: c_int = 6;
pub const XMPC_TYPE_ULONG: c_int = 7;
pub const XMPC_TYPE_LONGLONG: c_int = 8;
pub const XMPC_TYPE_ULONGLONG: c_int = 9;
pub const XMPC_TYPE_FLOAT: c_int = 10;
pub const XMPC_TYPE_DOUBLE: c_int = 11;
pub const XMPC_TYPE_LONGDOUBLE: c_int = 12;
pub const XMPC_TYPE_FLOAT_COMPLEX: c_int = 13;
pub const XMPC_TYPE_DOUBLE_COMPLEX: c_int = 14;
pub const XMPC_TYPE_BOOL: c_int = 15;

/// Reduction operators (`-` is XMPC_OP_SUM).
pub const XMPC_OP_SUM: c_int = 0;
pub const XMPC_OP_PROD: c_int = 1;
pub const XMPC_OP_BAND: c_int = 2;
pub const XMPC_OP_BOR: c_int = 3;
pub const XMPC_OP_BXOR: c_int = 4;
pub const XMPC_OP_LAND: c_int = 5;
pub const XMPC_OP_LOR: c_int = 6;
pub const XMPC_OP_MAX: c_int = 7;
pub const XMPC_OP_MIN: c_int = 8;
pub const XMPC_OP_FIRSTMAX: c_int = 9;
pub const XMPC_OP_FIRSTMIN: c_int = 10;
pub const XMPC_OP_LASTMAX: c_int = 11;
pub const XMPC_OP_LASTMIN: c_int = 12;

/// gmove modes.
pub const XMPC_GMOVE_NORMAL: c_int = 0;
pub const XMPC_GMOVE_IN: c_int = 1;
pub const XMPC_GMOVE_OUT: c_int = 2;
/// Called from a per-file constructor (__attribute__((constructor))) to create that
/// file's global nodes/templates/arrays once MPI is up. Run in registration order.
#[no_mangle]
pub extern "C" fn xmpc_register_file_init(init: Option<extern "C" fn()>) {
    if let Some(f) = init {
        state::with(|s| s.inits.push(f));
    }
}
/// MPI_Init (unless already initialised), then every registered file init. The
/// translator renames the user's main to xmpc_user_main and emits a main that calls
/// xmpc_init, xmpc_user_main, xmpc_finalize(status) and returns its result.
#[no_mangle]
pub unsafe extern "C" fn xmpc_init(argc: *mut c_int, argv: *mut *mut *mut c_char) {
    ffi::xs_init(argc, argv);
    state::init_world();
    let inits = state::with(|s| std::mem::take(&mut s.inits));
    for f in inits {
        f();
    }
}
/// MPI_Finalize; returns `status` (so main's exit status reaches mpiexec).
#[no_mangle]
pub extern "C" fn xmpc_finalize(status: c_int) -> c_int {
    finalize_handles();
    // SAFETY: finalize is idempotent in the shim.
    unsafe { ffi::xs_finalize() };
    status
}

/// Releases the MPI handles the runtime cached (reflect plans: persistent requests
/// and datatypes) before MPI_Finalize; in-flight async reflects are dropped.
pub(crate) fn finalize_handles() {
    // SAFETY: plain query.
    if unsafe { ffi::xs_mpi_active() } == 0 {
        return;
    }
    tca::report();
    let arrays = state::with(|s| {
        s.pending.clear();
        std::mem::take(&mut s.all_arrays)
    });
    for a in arrays {
        // SAFETY: all_arrays holds only live descriptors (xmpc_array_free removes them).
        if let Some(a) = unsafe { (a as *mut xmpc_array).as_mut() } {
            a.plans.clear();
        }
    }
}
/// Prints `[rank N] xmpc runtime error: FILE:LINE: TEXT: WHAT` and aborts (MPI_Abort, 1).
#[no_mangle]
pub unsafe extern "C" fn xmpc_fatal(loc: *const XmpcLoc, what: *const c_char) -> ! {
    let w = err::cstr(what);
    err::fatal(loc, &w)
}
