//! The rest of the XMP 1.4 library chapter (`include/xmp.h`): mapping inquiry
//! beyond `xmp.rs` (align/dist axes, offsets, gblock maps, global-to-local,
//! node-set equivalence and attributes), `xmp_test_async`, `xmpc_node_num`
//! and the MPI interface (`xmp_init`, `xmp_finalize`, `xmp_finalize_mpi`; the
//! entry points that take MPI types are in csrc/shim.c).
//! Dimension numbers are 1-based: array dims in the array's own order, template
//! and node dims in round order (Omni's convention).

use crate::array::xmpc_array;
use crate::dist::{CYCLIC, GBLOCK};
use crate::nodes::xmpc_nodes;
use crate::state;
use crate::template::xmpc_template;
use crate::xmp::XmpDesc;
use std::ffi::c_int;

fn arr<'a>(d: XmpDesc) -> Option<&'a xmpc_array> {
    // SAFETY: a live descriptor or NULL.
    unsafe { (d as *const xmpc_array).as_ref() }
}

fn tmpl<'a>(d: XmpDesc) -> Option<&'a xmpc_template> {
    // SAFETY: templates are never freed.
    unsafe { (d as *const xmpc_template).as_ref() }
}

fn nodes<'a>(d: XmpDesc) -> Option<&'a xmpc_nodes> {
    // SAFETY: node sets are never freed.
    unsafe { (d as *const xmpc_nodes).as_ref() }
}

fn put(p: *mut c_int, v: i64) -> c_int {
    if p.is_null() {
        return 1;
    }
    // SAFETY: caller-provided output.
    unsafe { *p = v as c_int };
    0
}

fn idx(dim: c_int, n: usize) -> Option<usize> {
    let d = (dim as usize).wrapping_sub(1);
    (d < n).then_some(d)
}

/// Template dim (1-based, round order) array dim `dim` is aligned with; 0 for `*`.
#[no_mangle]
pub extern "C" fn xmp_align_axis(d: XmpDesc, dim: c_int, axis: *mut c_int) -> c_int {
    arr(d).and_then(|a| Some(a.align_dim[idx(dim, a.ndims())?])).map_or(1, |t| put(axis, t as i64 + 1))
}

/// Offset c of `align a[i] with t[i + c]` for array dim `dim` (0 when not aligned).
#[no_mangle]
pub extern "C" fn xmp_align_offset(d: XmpDesc, dim: c_int, off: *mut c_int) -> c_int {
    arr(d).and_then(|a| Some(a.align_off[idx(dim, a.ndims())?])).map_or(1, |o| put(off, o))
}

/// 1 when no array dim is aligned with template dim `dim` (round order): the array
/// is replicated along it.
#[no_mangle]
pub extern "C" fn xmp_align_replicated(d: XmpDesc, dim: c_int, rep: *mut c_int) -> c_int {
    arr(d)
        .and_then(|a| {
            let td = idx(dim, a.template().ndims())? as i32;
            Some(!a.align_dim.contains(&td))
        })
        .map_or(1, |r| put(rep, r as i64))
}

/// Local index (in the allocated block, shadow included) of global index `g` of array
/// dim `dim` on the node that owns it (whichever node asks, as Omni).
#[no_mangle]
pub extern "C" fn xmp_array_gtol(d: XmpDesc, dim: c_int, g: c_int, l: *mut c_int) -> c_int {
    let Some((a, k)) = arr(d).and_then(|a| Some((a, idx(dim, a.ndims())?))) else { return 1 };
    let g = g as i64;
    if !(0..a.extent[k]).contains(&g) {
        return 1;
    }
    let td = a.align_dim[k];
    let owner = if td >= 0 { a.template().dist[td as usize].owner(g + a.align_off[k]) } else { 0 };
    match a.layout_for(k, Some(owner)) {
        Ok(x) if x.format == CYCLIC && !a.whole && !a.full[k] => put(l, ((g - x.offset) / (x.width * x.procs)) * x.width + (g - x.offset) % x.width),
        Ok(x) => put(l, g - x.offset),
        Err(_) => 1,
    }
}

/// Fortran's `xmp_array_gtol` (Omni's answer, `inquiry/F`): the 0-based index of
/// 0-based global index `g` of array dim `dim` in the block its owner stores
/// compactly, shadow included — also for an array xmpc's Fortran stores whole (a
/// cyclic dimension): Omni's layout, the one the program was written against.
#[no_mangle]
pub extern "C" fn xmpf_array_gtol_compact(d: XmpDesc, dim: c_int, g: c_int, l: *mut c_int) -> c_int {
    let Some((a, k)) = arr(d).and_then(|a| Some((a, idx(dim, a.ndims())?))) else { return 1 };
    let g = g as i64;
    if !(0..a.extent[k]).contains(&g) {
        return 1;
    }
    if a.full[k] {
        return put(l, g);
    }
    let td = a.align_dim[k];
    let owner = if td >= 0 { a.template().dist[td as usize].owner(g + a.align_off[k]) } else { 0 };
    match a.layout_stored(k, Some(owner)) {
        Ok(x) if x.format == CYCLIC => put(l, ((g - x.offset) / (x.width * x.procs)) * x.width + (g - x.offset) % x.width),
        Ok(x) => put(l, g - x.offset),
        Err(_) => 1,
    }
}

/// Fortran's `xmp_array_lshadow`/`ushadow` (`hi` 0/1): the declared width, also
/// where xmpc's Fortran stores the array whole (as Omni, which stores the shadow).
#[no_mangle]
pub extern "C" fn xmpf_array_shadow_width(d: XmpDesc, dim: c_int, hi: c_int, s: *mut c_int) -> c_int {
    let Some((a, k)) = arr(d).and_then(|a| Some((a, idx(dim, a.ndims())?))) else { return 1 };
    if !a.whole || a.full[k] {
        let x = a.dims[k];
        return put(s, if hi != 0 { x.shadow_hi } else { x.shadow_lo });
    }
    put(s, if hi != 0 { a.shadow_hi[k] } else { a.shadow_lo[k] })
}

/// Node dim (1-based) template dim `dim` is distributed over; 0 when not distributed.
#[no_mangle]
pub extern "C" fn xmp_dist_axis(d: XmpDesc, dim: c_int, axis: *mut c_int) -> c_int {
    tmpl(d).and_then(|t| Some(t.node_dim[idx(dim, t.node_dim.len())?])).map_or(1, |n| put(axis, n as i64 + 1))
}

/// The sizes of a gblock distribution of template dim `dim` (one per node);
/// 1 when the dim is not gblock.
#[no_mangle]
pub extern "C" fn xmp_dist_gblockmap(d: XmpDesc, dim: c_int, map: *mut c_int) -> c_int {
    let Some(x) = tmpl(d).and_then(|t| t.dist.get(idx(dim, t.dist.len())?)) else { return 1 };
    if x.format != GBLOCK || map.is_null() {
        return 1;
    }
    for (k, w) in x.starts.windows(2).enumerate() {
        // SAFETY: the caller provides one int per node of the dim.
        unsafe { *map.add(k) = (w[1] - w[0]) as c_int };
    }
    0
}

/// `nodes q = p(...)`: p's descriptor and, per p dim (round order), the 1-based
/// lower, upper and stride of the selection. A primary node set answers itself
/// over its whole extent.
#[no_mangle]
pub extern "C" fn xmp_nodes_equiv(d: XmpDesc, dn: *mut XmpDesc, lb: *mut c_int, ub: *mut c_int, st: *mut c_int) -> c_int {
    let Some(n) = nodes(d) else { return 1 };
    if dn.is_null() || lb.is_null() || ub.is_null() || st.is_null() {
        return 1;
    }
    let (p, eq): (XmpDesc, Vec<[i64; 3]>) =
        if n.parent.is_null() { (d, n.dims.iter().map(|&s| [1, s, 1]).collect()) } else { (n.parent as XmpDesc, n.equiv.clone()) };
    // SAFETY: caller-provided outputs, one int per parent dim.
    unsafe {
        *dn = p;
        for (k, [l, u, s]) in eq.into_iter().enumerate() {
            *lb.add(k) = l as c_int;
            *ub.add(k) = u as c_int;
            *st.add(k) = s as c_int;
        }
    }
    0
}

// xmp.h also defines XMP_ENTIRE_NODES (2000) and XMP_EXECUTING_NODES (2001).
pub const XMP_PRIMARY_NODES: c_int = 2002;
pub const XMP_EQUIVALENCE_NODES: c_int = 2003;

/// XMP_PRIMARY_NODES for a declared node set, XMP_EQUIVALENCE_NODES for `q = p(...)`.
#[no_mangle]
pub extern "C" fn xmp_nodes_attr(d: XmpDesc, attr: *mut c_int) -> c_int {
    nodes(d).map_or(1, |n| put(attr, if n.parent.is_null() { XMP_PRIMARY_NODES } else { XMP_EQUIVALENCE_NODES } as i64))
}

/// 1 once asynchronous communication `async_id` is complete; an unfinished one is
/// completed here (so a polling loop ends).
#[no_mangle]
pub extern "C" fn xmp_test_async(async_id: c_int) -> c_int {
    if state::with(|s| s.pending.contains_key(&async_id)) {
        crate::reflect::xmpc_wait_async(std::ptr::null(), async_id);
    }
    1
}

/// Omni's C extension: the 0-based number of this node among the executing nodes.
#[no_mangle]
pub extern "C" fn xmpc_node_num() -> c_int {
    state::exec().rank
}

/// MPI interface, for an MPI program calling XMP code: sets up the runtime (the
/// executing nodes, the files' global nodes/templates/arrays) once MPI is up.
/// No-op when it already ran (an XMP main does it before the user's code).
#[no_mangle]
pub extern "C" fn xmpc_rt_start() {
    if state::with(|s| !s.exec.is_empty()) {
        return;
    }
    state::init_world();
    let inits = state::with(|s| std::mem::take(&mut s.inits));
    for f in inits {
        f();
    }
}

/// Communicator handle (Fortran integer) of the executing nodes.
#[no_mangle]
pub extern "C" fn xmpc_rt_exec_comm() -> c_int {
    state::exec().comm
}

/// The executing nodes inside a task, for xmpc's libcaf (`runtime/lib/xmp/csrc/caf_lib.c`:
/// inside a task the coarray images are the task's nodes): returns their world ranks
/// (`*n` of them, valid until the task ends), with this process's index among them in
/// `*rank` and their communicator (Fortran handle, MPI_COMM_NULL for `nocomm`) in
/// `*comm`. Null outside any task, before the runtime starts and after it ends: the
/// images are then the whole program's.
///
/// # Safety
/// `n`, `rank` and `comm` point to writable ints.
#[no_mangle]
pub unsafe extern "C" fn xmpc_rt_exec_images(n: *mut c_int, rank: *mut c_int, comm: *mut c_int) -> *const c_int {
    state::with(|s| {
        if s.exec.len() < 2 {
            return std::ptr::null();
        }
        let e = &s.exec[s.exec.len() - 1];
        *n = e.world.len() as c_int;
        *rank = e.rank;
        *comm = e.comm;
        e.world.as_ptr()
    })
}

/// The nodes of a node set, for xmpc's libcaf (Omni's Fortran `coarray on p :: a` and
/// `image(p)`, `runtime/lib/xmp/csrc/caf_lib.c`): returns their world ranks by linear
/// index (`*n` of them, valid while the node set lives), with this process's index among
/// them in `*rank` (-1 when it is not a member) and their communicator (Fortran handle,
/// MPI_COMM_NULL on a non-member) in `*comm`. Null for a null node set.
///
/// # Safety
/// `h` is a node set of the runtime or null; `n`, `rank` and `comm` point to writable ints.
#[no_mangle]
pub unsafe extern "C" fn xmpc_rt_nodes_images(h: *const xmpc_nodes, n: *mut c_int, rank: *mut c_int, comm: *mut c_int) -> *const c_int {
    let Some(nd) = h.as_ref() else { return std::ptr::null() };
    *n = nd.world.len() as c_int;
    *rank = nd.rank;
    *comm = nd.comm;
    nd.world.as_ptr()
}

/// Ends the runtime's use of MPI (cached requests and datatypes) without
/// finalizing MPI: an MPI main calls MPI_Finalize itself afterwards.
#[no_mangle]
pub extern "C" fn xmp_finalize() {
    crate::finalize_handles();
}

/// Finalizes the runtime and MPI (an XMP main that called xmp_init_mpi).
#[no_mangle]
pub extern "C" fn xmp_finalize_mpi() {
    crate::xmpc_finalize(0);
}
