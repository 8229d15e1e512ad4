//! The user API of `include/xmp.h` (Omni's names and signatures).

use crate::array::{xmpc_array, Array};
use crate::ffi;
use crate::nodes::xmpc_nodes;
use crate::state;
use crate::template::xmpc_template;
use std::ffi::{c_int, c_long, c_void};

/// `xmp_desc_t`: an `xmpc_array*`, `xmpc_template*` or `xmpc_nodes*`.
pub(crate) type XmpDesc = *mut c_void;

#[no_mangle]
pub extern "C" fn xmp_node_num() -> c_int {
    state::exec().rank + 1
}

#[no_mangle]
pub extern "C" fn xmp_num_nodes() -> c_int {
    state::exec().world.len() as c_int
}

#[no_mangle]
pub extern "C" fn xmp_all_node_num() -> c_int {
    state::world_rank() + 1
}

#[no_mangle]
pub extern "C" fn xmp_all_num_nodes() -> c_int {
    state::with(|s| s.world_size)
}

#[no_mangle]
pub extern "C" fn xmp_wtime() -> f64 {
    // SAFETY: MPI_Wtime has no preconditions once MPI is up.
    unsafe { ffi::xs_wtime() }
}

/// Resolution of `xmp_wtime` in seconds.
#[no_mangle]
pub extern "C" fn xmp_wtick() -> f64 {
    // SAFETY: MPI_Wtick has no preconditions.
    unsafe { ffi::xs_wtick() }
}

// xmp_cpu_wtime / xmp_gpu_wtime: the XMP-dev runtime (xmpc-workshare) defines them.

/// Finalizes MPI and exits with `status`.
#[no_mangle]
pub extern "C" fn xmp_exit(status: c_int) -> ! {
    crate::xmpc_finalize(status);
    std::process::exit(status)
}

/// The descriptor of the distributed array whose local block starts at `addr`
/// (NULL if none).
#[no_mangle]
pub extern "C" fn xmp_desc_of(addr: *const c_void) -> XmpDesc {
    state::with(|s| s.arrays.get(&(addr as usize)).copied().unwrap_or(0)) as XmpDesc
}

fn arr<'a>(d: XmpDesc) -> Option<&'a Array> {
    // SAFETY: a live descriptor (the caller must not use a freed one).
    unsafe { (d as *const xmpc_array).as_ref() }
}

fn put(p: *mut c_int, v: i64) -> c_int {
    if p.is_null() {
        return 1;
    }
    // SAFETY: caller-provided output.
    unsafe { *p = v as c_int };
    0
}

/// 1-based dim index into a Vec, Omni style.
fn dim<T: Copy>(v: &[T], d: c_int) -> Option<T> {
    v.get((d as usize).wrapping_sub(1)).copied()
}

#[no_mangle]
pub extern "C" fn xmp_array_ndims(d: XmpDesc, ndims: *mut c_int) -> c_int {
    arr(d).map_or(1, |a| put(ndims, a.ndims() as i64))
}

#[no_mangle]
pub extern "C" fn xmp_array_lbound(d: XmpDesc, dm: c_int, lb: *mut c_int) -> c_int {
    arr(d).and_then(|a| dim(&a.extent, dm)).map_or(1, |_| put(lb, 0))
}

#[no_mangle]
pub extern "C" fn xmp_array_ubound(d: XmpDesc, dm: c_int, ub: *mut c_int) -> c_int {
    arr(d).and_then(|a| dim(&a.extent, dm)).map_or(1, |e| put(ub, e - 1))
}

#[no_mangle]
pub extern "C" fn xmp_array_gsize(d: XmpDesc, dm: c_int) -> c_int {
    arr(d).and_then(|a| dim(&a.extent, dm)).map_or(-1, |e| e as c_int)
}

/// Local extent of dimension `dm` on this node, shadows included: the layout seen
/// through `xmp_array_laddr` (as Omni's `xmp_array_lsize`, docs/omni-compat.md).
#[no_mangle]
pub extern "C" fn xmp_array_lsize(d: XmpDesc, dm: c_int, ls: *mut c_int) -> c_int {
    arr(d).and_then(|a| dim(&a.dims, dm)).map_or(1, |x| put(ls, x.alloc))
}

#[no_mangle]
pub extern "C" fn xmp_array_lshadow(d: XmpDesc, dm: c_int, s: *mut c_int) -> c_int {
    arr(d).and_then(|a| dim(&a.dims, dm)).map_or(1, |x| put(s, x.shadow_lo))
}

#[no_mangle]
pub extern "C" fn xmp_array_ushadow(d: XmpDesc, dm: c_int, s: *mut c_int) -> c_int {
    arr(d).and_then(|a| dim(&a.dims, dm)).map_or(1, |x| put(s, x.shadow_hi))
}

#[no_mangle]
pub extern "C" fn xmp_array_type_size(d: XmpDesc) -> usize {
    arr(d).map_or(0, |a| a.elem)
}

#[no_mangle]
pub extern "C" fn xmp_array_laddr(d: XmpDesc, laddr: *mut *mut c_void) -> c_int {
    match (arr(d), laddr.is_null()) {
        (Some(a), false) => {
            // SAFETY: caller-provided output.
            unsafe { *laddr = a.base as *mut c_void };
            0
        }
        _ => 1,
    }
}

/// Allocated extent (shadows included) of each dimension.
#[no_mangle]
pub extern "C" fn xmp_array_lead_dim(d: XmpDesc, size: *mut c_int) -> c_int {
    let Some(a) = arr(d) else { return 1 };
    if size.is_null() {
        return 1;
    }
    for (i, x) in a.dims.iter().enumerate() {
        // SAFETY: caller provides ndims entries.
        unsafe { *size.add(i) = x.alloc as c_int };
    }
    0
}

#[no_mangle]
pub extern "C" fn xmp_align_template(d: XmpDesc, dt: *mut XmpDesc) -> c_int {
    match (arr(d), dt.is_null()) {
        (Some(a), false) => {
            // SAFETY: caller-provided output.
            unsafe { *dt = a.tmpl as XmpDesc };
            0
        }
        _ => 1,
    }
}

fn tmpl<'a>(d: XmpDesc) -> Option<&'a xmpc_template> {
    // SAFETY: descriptors are never freed.
    unsafe { (d as *const xmpc_template).as_ref() }
}

#[no_mangle]
pub extern "C" fn xmp_template_fixed(d: XmpDesc, f: *mut c_int) -> c_int {
    tmpl(d).map_or(1, |t| put(f, t.fixed as i64))
}

#[no_mangle]
pub extern "C" fn xmp_template_ndims(d: XmpDesc, n: *mut c_int) -> c_int {
    tmpl(d).map_or(1, |t| put(n, t.ndims() as i64))
}

#[no_mangle]
pub extern "C" fn xmp_template_lbound(d: XmpDesc, dm: c_int, lb: *mut c_int) -> c_int {
    tmpl(d).and_then(|t| dim(&t.lower, dm)).map_or(1, |v| put(lb, v))
}

#[no_mangle]
pub extern "C" fn xmp_template_ubound(d: XmpDesc, dm: c_int, ub: *mut c_int) -> c_int {
    tmpl(d).and_then(|t| dim(&t.upper, dm)).map_or(1, |v| put(ub, v))
}

#[no_mangle]
pub extern "C" fn xmp_template_gsize(d: XmpDesc, dm: c_int) -> c_int {
    tmpl(d).and_then(|t| Some(dim(&t.upper, dm)? - dim(&t.lower, dm)? + 1)).map_or(-1, |v| v as c_int)
}

/// Distribution format of template dim `dm`, Omni's codes: XMP_NOT_DISTRIBUTED
/// (2100), XMP_BLOCK (2101), XMP_CYCLIC (2102, also cyclic(w)), XMP_GBLOCK (2103).
#[no_mangle]
pub extern "C" fn xmp_dist_format(d: XmpDesc, dm: c_int, f: *mut c_int) -> c_int {
    use crate::dist::{BLOCK, CYCLIC, GBLOCK};
    tmpl(d).and_then(|t| t.dist.get((dm as usize).wrapping_sub(1))).map_or(1, |x| {
        let code = match x.format {
            BLOCK => 2101,
            CYCLIC => 2102,
            GBLOCK => 2103,
            _ => 2100,
        };
        put(f, code)
    })
}

#[no_mangle]
pub extern "C" fn xmp_dist_blocksize(d: XmpDesc, dm: c_int, b: *mut c_int) -> c_int {
    tmpl(d).and_then(|t| t.dist.get((dm as usize).wrapping_sub(1))).map_or(1, |x| put(b, x.w))
}

#[no_mangle]
pub extern "C" fn xmp_dist_nodes(d: XmpDesc, dn: *mut XmpDesc) -> c_int {
    match (tmpl(d), dn.is_null()) {
        (Some(t), false) => {
            // SAFETY: caller-provided output.
            unsafe { *dn = t.onto as XmpDesc };
            0
        }
        _ => 1,
    }
}

fn nodes<'a>(d: XmpDesc) -> Option<&'a xmpc_nodes> {
    // SAFETY: descriptors are never freed.
    unsafe { (d as *const xmpc_nodes).as_ref() }
}

#[no_mangle]
pub extern "C" fn xmp_nodes_ndims(d: XmpDesc, n: *mut c_int) -> c_int {
    nodes(d).map_or(1, |x| put(n, x.dims.len() as i64))
}

/// 1-based coordinate of this node in dim `dm`.
#[no_mangle]
pub extern "C" fn xmp_nodes_index(d: XmpDesc, dm: c_int, i: *mut c_int) -> c_int {
    nodes(d).and_then(|x| dim(&x.coords, dm)).map_or(1, |c| put(i, c + 1))
}

#[no_mangle]
pub extern "C" fn xmp_nodes_size(d: XmpDesc, dm: c_int, s: *mut c_int) -> c_int {
    nodes(d).and_then(|x| dim(&x.dims, dm)).map_or(1, |v| put(s, v))
}

/// 1-based rank of this node in the set (0 when not a member).
#[no_mangle]
pub extern "C" fn xmp_nodes_rank(d: XmpDesc, r: *mut c_int) -> c_int {
    nodes(d).map_or(1, |x| put(r, x.rank as i64 + 1))
}

/// Called by `xmp_malloc` (csrc/shim.c, variadic): sets the extents and
/// allocates the local block.
///
/// # Safety
/// `sizes` holds `n` values.
#[no_mangle]
pub unsafe extern "C" fn xmpc_rt_malloc_dims(d: XmpDesc, n: c_int, sizes: *const c_long) -> *mut c_void {
    let Some(a) = (d as *mut xmpc_array).as_mut() else { return std::ptr::null_mut() };
    let s: Vec<i64> = std::slice::from_raw_parts(sizes, n.max(0) as usize).to_vec();
    crate::err::guard(std::ptr::null(), || crate::array::malloc_dims(a, &s))
}
