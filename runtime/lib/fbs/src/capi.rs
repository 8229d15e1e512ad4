//! C ABI (`include/xmpc_fbs.h`): opaque `fbs_t`, created and freed by one
//! thread, waited on by `n` threads, each with its own index.

use crate::{Barrier, Layout, Policy};
use std::ffi::c_int;

/// Opaque barrier handle for C.
#[allow(non_camel_case_types)]
pub struct fbs_t(Barrier);

/// A barrier for `n` threads; `layout` 0: each flag on its own 128-byte line
/// (recommended), 1: all flags on one line. NULL when `n < 1` or `layout` is
/// neither.
#[no_mangle]
pub extern "C" fn fbs_new(n: c_int, layout: c_int) -> *mut fbs_t {
    let layout = match layout {
        0 => Layout::Separate,
        1 => Layout::Packed,
        _ => return std::ptr::null_mut(),
    };
    if n < 1 {
        return std::ptr::null_mut();
    }
    Box::into_raw(Box::new(fbs_t(Barrier::with(n as usize, layout, Policy::for_participants(n as usize)))))
}

/// Barrier point for participant `me` (0 <= me < n; one thread per index).
/// Returns 0, or -1 (at once, without waiting) for a NULL handle or an index
/// out of range.
///
/// # Safety
/// `b` is NULL or a live handle from `fbs_new`.
#[no_mangle]
pub unsafe extern "C" fn fbs_wait(b: *const fbs_t, me: c_int) -> c_int {
    match b.as_ref() {
        Some(b) if me >= 0 && (me as usize) < b.0.participants() => {
            b.0.wait(me as usize);
            0
        }
        _ => -1,
    }
}

/// The participant count of `b` (0 for NULL).
///
/// # Safety
/// `b` is NULL or a live handle from `fbs_new`.
#[no_mangle]
pub unsafe extern "C" fn fbs_participants(b: *const fbs_t) -> c_int {
    b.as_ref().map_or(0, |b| b.0.participants() as c_int)
}

/// Frees `b` (NULL: nothing). No thread may be waiting on it.
///
/// # Safety
/// `b` is NULL or a live handle from `fbs_new`, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn fbs_free(b: *mut fbs_t) {
    if !b.is_null() {
        drop(Box::from_raw(b));
    }
}
