//! `reduce_shadow`: the reverse of reflect. Each node's shadow values are
//! added into the elements of the node that owns them (`+`, the spec's
//! default operator), e.g. after a loop that scattered contributions into
//! the shadows.
//!
//! As in Omni, each dim's slab spans only the owned elements of the other
//! dims: shadow corners are not reduced, so a value written into a corner
//! shadow (the diagonal neighbour's element) is dropped. Omni's own test
//! (shadow-reflect/reduce_shadow.c) expects exactly this; docs/omni-compat.md.
//! Shadow contents are unspecified afterwards (reflect refreshes them). No plan
//! is cached: one pack, sendrecv, pack, reduce and unpack per halo.

use crate::array::{xmpc_array, Array};
use crate::dist::{BLOCK, DUP, GBLOCK};
use crate::err::{fatal, guard, XmpcLoc};
use crate::ffi::{self, Fint};
use crate::reduce::TYPE_SIZES;
use crate::reflect::{check_width, neighbours, owned};
use std::ffi::{c_int, c_long, c_void};

/// The region of the local block described by `ty`, packed.
fn pack(a: &Array, ty: Fint) -> Vec<u8> {
    // SAFETY: a committed type describing a region of the local block.
    let bytes = unsafe { ffi::xs_type_size(ty) };
    let mut buf = vec![0u8; bytes.max(0) as usize];
    // SAFETY: `buf` has the type's size.
    unsafe { ffi::xs_pack(a.base as *const c_void, ty, buf.as_mut_ptr() as *mut c_void, bytes) };
    buf
}

/// The slab `start..start+count` of dim `d`, the other dims' owned elements
/// only (no shadow corners, as in Omni).
fn slab(a: &Array, d: usize, start: i64, count: i64) -> Fint {
    let sizes: Vec<c_int> = a.dims.iter().map(|x| x.alloc as c_int).collect();
    let mut subs: Vec<c_int> = a.dims.iter().map(|x| (x.upper - x.lower + 1).max(0) as c_int).collect();
    let mut starts: Vec<c_int> = a.dims.iter().map(|x| x.shadow_lo as c_int).collect();
    subs[d] = count as c_int;
    starts[d] = start as c_int;
    // SAFETY: the slab lies inside the local block (checked by the caller).
    unsafe { ffi::xs_type_subarray(sizes.len() as c_int, sizes.as_ptr(), subs.as_ptr(), starts.as_ptr(), a.elem as c_int) }
}

fn run(a: &Array, wlo: &[i64], whi: &[i64], periodic: &[bool], ty: c_int) -> Result<(), String> {
    let t = a.template();
    let nodes = t.nodes().ok_or("array has no node set")?;
    for d in (0..a.ndims()).rev() {
        let td = a.align_dim[d];
        if td >= 0 && a.full[d] {
            return Err(format!("reduce_shadow of the full shadow of dimension {}", d + 1));
        }
        if td < 0 || (wlo[d] == 0 && whi[d] == 0) {
            continue;
        }
        let nd = t.node_dim[td as usize];
        let fmt = t.dist[td as usize].format;
        if nd < 0 || fmt == DUP {
            continue;
        }
        if fmt != BLOCK && fmt != GBLOCK {
            return Err(format!("reduce_shadow on a cyclic array dimension {}", d + 1));
        }
        let nd = nd as usize;
        let x = a.dims[d];
        check_width("reduce_shadow", &x, wlo[d], whi[d], d)?;
        let n = x.upper - x.lower + 1;
        if n <= 0 {
            continue;
        }
        let (procs, me) = (nodes.dims[nd], nodes.coords[nd]);
        let (lower_nb, upper_nb) = neighbours(a, d, procs, me, periodic[d]);
        let rank_of = |q: Option<i64>| {
            q.map_or(-1, |q| {
                let mut c = nodes.coords.clone();
                c[nd] = q;
                nodes.linear(&c) as c_int
            })
        };
        let slo = x.shadow_lo;
        for (w, dir) in [(wlo[d], 0), (whi[d], 1)] {
            if w == 0 {
                continue;
            }
            // a node that owns something owns fewer than w elements
            if (0..procs).any(|q| (1..w).contains(&owned(a, d, q))) {
                return Err(format!("reduce_shadow width {w} exceeds a node's elements on dimension {}", d + 1));
            }
            // dir 0: my lower shadow goes down, the upper neighbour's lower shadow is
            // added into my top elements; dir 1 the mirror image
            let (to, from, send_at, add_at) = if dir == 0 { (lower_nb, upper_nb, slo - w, slo + n - w) } else { (upper_nb, lower_nb, slo + n, slo) };
            let sty = slab(a, d, send_at, w);
            let rty = slab(a, d, add_at, w);
            let sbuf = if to.is_some() { pack(a, sty) } else { vec![] };
            // SAFETY: committed type.
            let rbytes = unsafe { ffi::xs_type_size(rty) };
            let mut rbuf = vec![0u8; if from.is_some() { rbytes.max(0) as usize } else { 0 }];
            let tag = 16384 + ((a.id as i64 % 128) * 64 + d as i64 * 2 + dir) as c_int;
            // SAFETY: buffers of the given sizes; -1 = no peer (MPI_PROC_NULL).
            unsafe {
                ffi::xs_sendrecv_bytes(
                    sbuf.as_ptr() as *const c_void,
                    sbuf.len() as c_int,
                    rank_of(to),
                    rbuf.as_mut_ptr() as *mut c_void,
                    rbuf.len() as c_int,
                    rank_of(from),
                    tag,
                    nodes.comm,
                )
            };
            let mut res = Ok(());
            if from.is_some() {
                let mut mine = pack(a, rty);
                let count = (mine.len() / a.elem) as c_int;
                // SAFETY: both buffers hold `count` elements of type `ty`.
                let rc = unsafe { ffi::xs_reduce_local_sum(rbuf.as_ptr() as *const c_void, mine.as_mut_ptr() as *mut c_void, count, ty) };
                if rc != 0 {
                    res = Err(format!("reduce_shadow: `+` is not defined for element type {ty}"));
                } else {
                    // SAFETY: the type describes a region of the local block.
                    unsafe { ffi::xs_unpack(mine.as_ptr() as *const c_void, mine.len() as c_int, a.base as *mut c_void, rty) };
                }
            }
            // SAFETY: types of this call, freed once.
            unsafe {
                ffi::xs_type_free(sty);
                ffi::xs_type_free(rty);
            }
            res?;
        }
    }
    Ok(())
}

/// `reduce_shadow (a) [width([/periodic/]lo:hi, ...)] [async(id)]`: adds each
/// shadow element into the element of its owner (operator `+`); widths per array
/// dim (NULL = the declared shadow widths), periodic per dim (NULL = none). `ty` is
/// the element type (XMPC_TYPE_*, its size must be the array's element size).
/// Collective over the array's nodes; done before returning, also with an async
/// id (a later xmpc_wait_async has nothing left to do for it). Shadow contents
/// are unspecified afterwards.
#[no_mangle]
pub unsafe extern "C" fn xmpc_reduce_shadow(
    loc: *const XmpcLoc,
    a: *mut xmpc_array,
    width_lo: *const c_long,
    width_hi: *const c_long,
    periodic: *const c_int,
    ty: c_int,
    async_id: c_int,
) {
    let _ = async_id;
    let a = a.as_mut().unwrap_or_else(|| fatal(loc, "reduce_shadow of no array"));
    if a.base.is_null() {
        fatal(loc, "reduce_shadow of an array that is not allocated");
    }
    if !(0..16).contains(&ty) || TYPE_SIZES[ty as usize] != a.elem {
        fatal(loc, &format!("reduce_shadow: element type {ty} does not match the array's {}-byte elements", a.elem));
    }
    if !a.member() {
        return;
    }
    let n = a.ndims();
    let get = |p: *const c_long, dflt: Vec<i64>| -> Vec<i64> {
        if p.is_null() {
            dflt
        } else {
            std::slice::from_raw_parts(p, n).to_vec()
        }
    };
    let wlo = get(width_lo, a.dims.iter().zip(&a.full).map(|(x, &f)| if f { 0 } else { x.shadow_lo }).collect());
    let whi = get(width_hi, a.dims.iter().zip(&a.full).map(|(x, &f)| if f { 0 } else { x.shadow_hi }).collect());
    let per: Vec<bool> = if periodic.is_null() { vec![false; n] } else { std::slice::from_raw_parts(periodic, n).iter().map(|&x| x != 0).collect() };
    guard(loc, || run(a, &wlo, &whi, &per, ty).unwrap_or_else(|e| fatal(loc, &e)))
}
