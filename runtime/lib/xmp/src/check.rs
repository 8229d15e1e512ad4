//! The checking mode (`xmpc -fcheck=xmp`, docs/checking.md): the translator wraps each
//! global index of an access to a distributed array in [`xmpc_check_index`], which
//! stops the job when the executing node does not hold that element (neither in its
//! block nor in its shadow). Code translated without the mode calls nothing here.
//!
//! Fortran programs are checked by gfortran's `-fcheck=bounds` on the local block
//! (declared with global bounds, shadows included); `xmpf_check_on` (shim_f.c) makes such a
//! runtime error name the rank and stop the whole job.

use crate::array::{xmpc_array, XmpcDim};
use crate::dist::CYCLIC;
use crate::err::{cstr, fatal, XmpcLoc};
use std::ffi::{c_char, c_int, c_long};

/// Whether `g` (0-based global index of dimension `d`) is held by this node.
fn holds(v: &XmpcDim, g: i64) -> bool {
    let d_full = v.shadow_lo == v.lower && v.shadow_hi == v.alloc - 1 - v.upper && v.lower <= v.upper;
    if v.format == CYCLIC && !d_full {
        if g < v.lower || g > v.upper {
            return false;
        }
        let (w, p) = (v.width.max(1), v.procs.max(1));
        return (g - v.offset).rem_euclid(w * p) < w;
    }
    v.lower <= v.upper && g >= v.lower - v.shadow_lo && g <= v.upper + v.shadow_hi
}

/// Checking mode: returns `g`, the 0-based global index of dimension `dim` of `a`
/// used at `loc` (`loc.text`: the access as written), when this node holds that
/// element (its block or shadow); otherwise prints the rank, the location, the array
/// `name` and the index (plus `base`, the first index of the dimension as the
/// program writes it: 0 in C) and aborts the job.
///
/// # Safety
/// `a` is a live descriptor, `loc` a static location, `name` a C string.
#[no_mangle]
pub unsafe extern "C" fn xmpc_check_index(a: *const xmpc_array, dim: c_int, g: c_long, base: c_long, name: *const c_char, loc: *const XmpcLoc) -> c_long {
    let Some(arr) = a.as_ref() else { fatal(loc, "checking mode: access to an array that is not set up") };
    let d = dim as usize;
    let v = match arr.dims.get(d) {
        Some(v) => *v,
        None => {
            let mut v = XmpcDim::default();
            crate::array::xmpc_array_dim(a, dim, &mut v);
            v
        }
    };
    let ext = arr.extent.get(d).copied().unwrap_or(0);
    if g >= 0 && g < ext && holds(&v, g) {
        return g;
    }
    fatal(loc, &report(arr, &v, d, g, base, &cstr(name)))
}

fn report(a: &xmpc_array, v: &XmpcDim, d: usize, g: i64, base: i64, name: &str) -> String {
    let ext = a.extent.get(d).copied().unwrap_or(0);
    let dim = d + 1;
    let idx = g + base;
    if g < 0 || g >= ext {
        return format!("checking mode: index {idx} of dimension {dim} of `{name}` is outside the array ({}:{})", base, ext - 1 + base);
    }
    if v.lower > v.upper {
        return format!("checking mode: `{name}` element with index {idx} in dimension {dim} is not on this node (it holds no element of `{name}`)");
    }
    let (lo, hi) = (v.lower + base, v.upper + base);
    if v.format == CYCLIC {
        return format!("checking mode: `{name}` element with index {idx} in dimension {dim} belongs to another node (cyclic; this node holds blocks of {} between {lo} and {hi})", v.width);
    }
    format!(
        "checking mode: `{name}` element with index {idx} in dimension {dim} belongs to another node (this node holds {lo}:{hi}, shadow {} below and {} above); add a shadow and a reflect, or a gmove",
        v.shadow_lo, v.shadow_hi
    )
}
