//! XcalableACC persistent halos (`reflect_init` / `reflect_do`, host and `acc` forms).
//!
//! `reflect_init (a) [width(..)]` records the widths of array `a` once;
//! `reflect_do (a)` runs the exchange with them, reusing the persistent plan that
//! [`crate::reflect`] caches per (array, widths, periodic). On the host fallback of
//! OpenACC the device data are the host storage; the translator stages data of an
//! offloaded build around the call (`docs/xacc.md`).

use crate::array::xmpc_array;
use crate::err::{fatal, XmpcLoc};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_int, c_long};

/// Widths given to `reflect_init`: `None` = the declared shadow widths.
#[derive(Clone)]
struct Init {
    widths: Option<(Vec<c_long>, Vec<c_long>)>,
    periodic: Vec<c_int>,
}

thread_local! {
    // keyed by the array's address; dropped by `forget` when the array is freed; an Rc, so
    // that `reflect_do` takes it without copying the widths (no allocation per call)
    static INITS: RefCell<HashMap<usize, std::rc::Rc<Init>>> = RefCell::new(HashMap::new());
}

/// Drops what `reflect_init` recorded for an array that is being freed.
pub(crate) fn forget(a: *const xmpc_array) {
    INITS.with(|m| m.borrow_mut().remove(&(a as usize)));
}

/// Added (XcalableACC): `reflect_init (a) [width(...)]`: records the widths (NULL:
/// the declared shadow widths; periodic NULL: none) that later
/// `xmpc_reflect_do(a)` calls use. Executed by every node of the array; a second
/// call for the same array replaces the widths.
#[no_mangle]
pub unsafe extern "C" fn xmpc_reflect_init(loc: *const XmpcLoc, a: *mut xmpc_array, width_lo: *const c_long, width_hi: *const c_long, periodic: *const c_int) {
    let arr = a.as_ref().unwrap_or_else(|| fatal(loc, "reflect_init of no array"));
    if arr.whole {
        fatal(loc, "reflect_init of an array stored whole (aligned with a cyclic dimension)");
    }
    let n = arr.extent.len();
    if width_lo.is_null() != width_hi.is_null() {
        fatal(loc, "reflect_init: lower and upper widths must be given together");
    }
    let widths =
        if width_lo.is_null() { None } else { Some((std::slice::from_raw_parts(width_lo, n).to_vec(), std::slice::from_raw_parts(width_hi, n).to_vec())) };
    if let Some((lo, hi)) = &widths {
        for d in 0..n {
            if lo[d] < 0 || hi[d] < 0 || lo[d] > arr.shadow_lo[d] || hi[d] > arr.shadow_hi[d] {
                fatal(
                    loc,
                    &format!("reflect_init width {}:{} of dimension {} exceeds the shadow {}:{}", lo[d], hi[d], d + 1, arr.shadow_lo[d], arr.shadow_hi[d]),
                );
            }
        }
    }
    let periodic = if periodic.is_null() { vec![0; n] } else { std::slice::from_raw_parts(periodic, n).to_vec() };
    INITS.with(|m| m.borrow_mut().insert(a as usize, std::rc::Rc::new(Init { widths, periodic })));
}

/// Added (XcalableACC): `reflect_do (a) [async(id)]`: the exchange set up by the
/// last `xmpc_reflect_init` of `a` (an error without one).
#[no_mangle]
pub unsafe extern "C" fn xmpc_reflect_do(loc: *const XmpcLoc, a: *mut xmpc_array, async_id: c_int) {
    let Some(init) = INITS.with(|m| m.borrow().get(&(a as usize)).cloned()) else {
        fatal(loc, "reflect_do of an array with no reflect_init before it");
    };
    let (lo, hi) = match &init.widths {
        Some((l, h)) => (l.as_ptr(), h.as_ptr()),
        None => (std::ptr::null(), std::ptr::null()),
    };
    crate::reflect::xmpc_reflect(loc, a, lo, hi, init.periodic.as_ptr(), async_id);
}
