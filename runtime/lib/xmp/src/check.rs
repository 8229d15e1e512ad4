//! The checking mode (`xmpc -fcheck=xmp`, docs/checking.md): the translator wraps each
//! global index of an access to a distributed array in `xmpc_check_index` (inline in
//! the header: a compare with [`xmpc_check_bounds`], [`xmpc_check_slow`] when
//! outside), which stops the job when the executing node does not hold that element
//! (neither in its block nor in its shadow). Code translated without the mode calls
//! nothing here.
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

fn dim_of(a: *const xmpc_array, arr: &xmpc_array, d: usize) -> XmpcDim {
    match arr.dims.get(d) {
        Some(v) => *v,
        None => {
            let mut v = XmpcDim::default();
            // SAFETY: `a` is the live descriptor `arr`.
            unsafe { crate::array::xmpc_array_dim(a, d as c_int, &mut v) };
            v
        }
    }
}

/// Checking mode: per dimension of `a` the range of indices this node may access,
/// `[lo0, hi0, lo1, hi1, ...]` (block and shadow; for a cyclic dimension the span of
/// its blocks, which the slow path refines). Fixed for the descriptor's life: the
/// header declares it `__attribute__((const))`, so a loop reads it once. The inline
/// `xmpc_check_index` of the header compares an index with it and calls
/// [`xmpc_check_slow`] only when it is outside.
///
/// # Safety
/// `a` is a live descriptor.
#[no_mangle]
pub unsafe extern "C" fn xmpc_check_bounds(a: *const xmpc_array) -> *const c_long {
    static NONE: [c_long; 2] = [1, 0];
    let Some(arr) = a.as_ref() else { return NONE.as_ptr() };
    arr.check
        .get_or_init(|| {
            (0..arr.ndims())
                .flat_map(|d| {
                    let v = dim_of(a, arr, d);
                    let full = v.format != CYCLIC || (v.shadow_lo == v.lower && v.shadow_hi == v.alloc - 1 - v.upper);
                    let (lo, hi) = if v.lower > v.upper {
                        (1, 0)
                    } else if full {
                        (v.lower - v.shadow_lo, v.upper + v.shadow_hi)
                    } else {
                        (v.lower, v.upper)
                    };
                    // a periodic shadow lies outside the array (`a[-1]` after
                    // `reflect (a) width(/periodic/1)`): not clamped
                    [lo, hi]
                })
                .collect()
        })
        .as_ptr()
}

/// Checking mode, slow path: returns `g`, the 0-based global index of dimension `dim`
/// of `a` used at `loc` (`loc.text`: the access as written), when this node holds
/// that element (a cyclic dimension's index between its blocks); otherwise prints
/// the rank, the location, the array `name` and the index (plus `base`, the first
/// index of the dimension as the program writes it: 0 in C) and aborts the job.
///
/// # Safety
/// `a` is a live descriptor, `loc` a static location, `name` a C string.
#[no_mangle]
pub unsafe extern "C" fn xmpc_check_slow(a: *const xmpc_array, dim: c_int, g: c_long, base: c_long, name: *const c_char, loc: *const XmpcLoc) -> c_long {
    let Some(arr) = a.as_ref() else { fatal(loc, "checking mode: access to an array that is not set up") };
    let d = dim as usize;
    let v = dim_of(a, arr, d);
    if holds(&v, g) {
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
