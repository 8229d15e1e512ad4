//! `gmove`: assignment between array sections, any mix of distributed and
//! local. General algorithm: every executing node walks both sections in the
//! same order, computes each element's owners with the arrays' own index maps,
//! packs what it provides per destination, and one MPI_Alltoallv moves it.
//! A receiver that owns the source element itself copies locally.

use crate::array::{xmpc_array, Array};
use crate::err::{fatal, guard, XmpcLoc};
use crate::ffi;
use crate::state;
use std::ffi::{c_int, c_long, c_void};

/// One side of a gmove (`xmpc_section` in C).
#[repr(C)]
pub struct XmpcSection {
    pub array: *mut xmpc_array,
    pub base: *mut c_void,
    pub ndims: c_int,
    pub elem_size: usize,
    pub extent: *const c_long,
    pub lo: *const c_long,
    pub hi: *const c_long,
    pub st: *const c_long,
}

/// A section with per-dimension precomputed owners and local offsets.
struct Side<'a> {
    array: Option<&'a Array>,
    base: *mut u8,
    elem: usize,
    /// per dim: global indices of the section
    idx: Vec<Vec<i64>>,
    /// per dim: for each position, the owning node coordinate (or -1 = any)
    owner: Vec<Vec<i64>>,
    /// per dim: node dim constrained by it (-1 none)
    node_dim: Vec<i32>,
    /// per dim: byte offset contribution on the owner
    off: Vec<Vec<i64>>,
    /// per replica of the array (one unless its node set was made with `*`):
    /// exec rank of each node of the node set
    exec_of: Vec<Vec<i32>>,
    /// coordinates of each node of the node set (computed once: owners() asks per element)
    coords: Vec<Vec<i64>>,
}

fn side<'a>(loc: *const XmpcLoc, s: &'a XmpcSection, exec_world: &[i32]) -> Side<'a> {
    let n = s.ndims.max(0) as usize;
    // SAFETY: per the contract, arrays hold `ndims` values.
    let (lo, hi, st) = unsafe { (std::slice::from_raw_parts(s.lo, n), std::slice::from_raw_parts(s.hi, n), std::slice::from_raw_parts(s.st, n)) };
    // SAFETY: array handles are never freed.
    let array = unsafe { s.array.as_ref() };
    let mut idx = vec![];
    for d in 0..n {
        let step = if st[d] == 0 { 1 } else { st[d] };
        let v: Vec<i64> = if step > 0 {
            (lo[d]..=hi[d]).step_by(step as usize).collect()
        } else {
            let mut v = vec![];
            let mut i = lo[d];
            while i >= hi[d] {
                v.push(i);
                i += step;
            }
            v
        };
        idx.push(v);
    }
    match array {
        None => {
            let ext: Vec<i64> = if s.extent.is_null() {
                vec![1; n]
            } else {
                // SAFETY: `ndims` extents.
                unsafe { std::slice::from_raw_parts(s.extent, n) }.to_vec()
            };
            let mut stride = vec![s.elem_size; n];
            for d in (0..n.saturating_sub(1)).rev() {
                stride[d] = stride[d + 1] * ext[d + 1] as usize;
            }
            for d in 0..n {
                if let Some(&g) = idx[d].iter().find(|&&g| g < 0 || g >= ext[d]) {
                    fatal(loc, &format!("gmove index {g} is outside 0:{} of a local array", ext[d] - 1));
                }
            }
            Side {
                array: None,
                base: s.base as *mut u8,
                elem: s.elem_size,
                owner: idx.iter().map(|v| vec![-1; v.len()]).collect(),
                off: (0..n).map(|d| idx[d].iter().map(|&g| g * stride[d] as i64).collect()).collect(),
                node_dim: vec![-1; n],
                idx,
                exec_of: vec![],
                coords: vec![],
            }
        }
        Some(a) => {
            if a.ndims() != n {
                fatal(loc, "gmove section rank differs from the array's");
            }
            let t = a.template();
            let nodes = t.nodes().unwrap_or_else(|| fatal(loc, "gmove on an array without nodes"));
            let exec_of = replica_exec_ranks(loc, nodes, exec_world);
            let strides = a.strides();
            let (mut owner, mut off, mut node_dim) = (vec![], vec![], vec![]);
            for d in 0..n {
                if let Some(&g) = idx[d].iter().find(|&&g| g < 0 || g >= a.extent[d]) {
                    fatal(loc, &format!("gmove index {g} is outside 0:{} of dimension {}", a.extent[d] - 1, d + 1));
                }
                let td = a.align_dim[d];
                let nd = if td >= 0 { t.node_dim[td as usize] } else { -1 };
                node_dim.push(nd);
                owner.push(idx[d].iter().map(|&g| if nd >= 0 { t.dist[td as usize].owner(g + a.align_off[d]) } else { -1 }).collect());
                let elem = a.elem;
                off.push(
                    idx[d].iter().map(|&g| if a.dims.is_empty() { 0 } else { a.local(d, g).wrapping_mul(strides[d]).wrapping_mul(elem as i64) }).collect(),
                );
            }
            let coords = (0..nodes.size()).map(|l| nodes.coords_of(l)).collect();
            Side { array: Some(a), base: a.base, elem: a.elem, idx, owner, node_dim, off, exec_of, coords }
        }
    }
}

/// Exec ranks of the nodes of `nodes`, per replica. A node set made with `*` in
/// its node reference (`nodes row[2] = p[0:2][*]`) is one of a family, one set per
/// coordinate of the `*` dims, each node holding its own; an array distributed
/// onto it is replicated over the family, so a gmove writes every replica (the
/// source's owners send to each replica's owner) and may read any. Every node
/// computes the same family from the parent, so all plan the same exchange.
fn replica_exec_ranks(loc: *const XmpcLoc, nodes: &crate::nodes::Nodes, exec_world: &[i32]) -> Vec<Vec<i32>> {
    let family = nodes.family();
    let ranks: Vec<Vec<i32>> =
        family.iter().map(|world| world.iter().map(|w| exec_world.iter().position(|x| x == w).map_or(-1, |p| p as i32)).collect()).collect();
    if ranks.iter().any(|r: &Vec<i32>| r.contains(&-1)) {
        fatal(loc, "gmove on an array whose nodes are not all executing");
    }
    ranks
}

impl Side<'_> {
    fn count(&self) -> usize {
        self.idx.iter().map(|v| v.len()).product()
    }

    /// Exec ranks owning the element at per-dim positions `pos` (all if local).
    /// `fixed`: scratch (the node coordinates the element's position pins).
    fn owners(&self, pos: &[usize], nexec: usize, fixed: &mut Vec<i64>, out: &mut Vec<i32>) {
        out.clear();
        if self.array.is_none() {
            out.extend(0..nexec as i32);
            return;
        }
        fixed.clear();
        fixed.resize(self.coords.first().map_or(0, |c| c.len()), -1);
        for (d, &p) in pos.iter().enumerate() {
            if self.node_dim[d] >= 0 {
                fixed[self.node_dim[d] as usize] = self.owner[d][p];
            }
        }
        for (l, c) in self.coords.iter().enumerate() {
            if c.iter().zip(fixed.iter()).all(|(&x, &f)| f < 0 || x == f) {
                out.extend(self.exec_of.iter().map(|r| r[l]));
            }
        }
        if self.exec_of.len() > 1 {
            out.sort_unstable();
            out.dedup();
        }
    }

    /// Byte offset in the local block (meaningful on an owner only).
    fn offset(&self, pos: &[usize]) -> usize {
        pos.iter().enumerate().fold(0i64, |a, (d, &p)| a.wrapping_add(self.off[d][p])) as usize
    }
}

fn advance(pos: &mut [usize], lens: &[usize]) {
    for d in (0..pos.len()).rev() {
        pos[d] += 1;
        if pos[d] < lens[d] {
            return;
        }
        pos[d] = 0;
    }
}
/// `gmove [in|out]`: dst = src between array sections of equal element count (or a
/// one-element source, assigned to every destination element), walked in row-major order. Collective over the executing nodes. A replicated or local
/// destination is written on every owner/node; a local source is read from each
/// node's own copy. in/out are currently done like the normal mode (collectively);
/// async_id is ignored (completes before returning).
#[no_mangle]
pub unsafe extern "C" fn xmpc_gmove(loc: *const XmpcLoc, dst: *const XmpcSection, src: *const XmpcSection, mode: c_int, async_id: c_int) {
    let (Some(dst), Some(src)) = (dst.as_ref(), src.as_ref()) else { fatal(loc, "gmove without sections") };
    let _ = (mode, async_id); // in/out and async complete synchronously
    guard(loc, || {
        let e = state::exec();
        let d = side(loc, dst, &e.world);
        let s = side(loc, src, &e.world);
        if d.elem != s.elem {
            fatal(loc, &format!("gmove element sizes differ ({} vs {})", d.elem, s.elem));
        }
        let n = d.count();
        // an element (one-element section) on the right is assigned to every element
        // of the left (XMP 1.4 §4.6.2; Omni's gmove_test_normal `a(1:n/4, ...) = b(3,4,5)`):
        // its position stays at the origin while the destination's advances
        if n != s.count() && s.count() != 1 {
            fatal(loc, &format!("gmove sections have {} and {} elements", n, s.count()));
        }
        let elem = d.elem;
        let local_only = d.array.is_none() && s.array.is_none();
        let np = e.world.len();
        let me = e.rank;
        if local_only || np == 1 {
            // same process: stage through a buffer (sections may overlap)
            let mut tmp = vec![0u8; n * elem];
            let (dl, sl): (Vec<usize>, Vec<usize>) = (d.idx.iter().map(|v| v.len()).collect(), s.idx.iter().map(|v| v.len()).collect());
            let (mut dp, mut sp) = (vec![0; dl.len()], vec![0; sl.len()]);
            for k in 0..n {
                // SAFETY: offsets are inside the local blocks (checked above).
                unsafe { std::ptr::copy_nonoverlapping(s.base.add(s.offset(&sp)), tmp.as_mut_ptr().add(k * elem), elem) };
                advance(&mut sp, &sl);
            }
            for k in 0..n {
                unsafe { std::ptr::copy_nonoverlapping(tmp.as_ptr().add(k * elem), d.base.add(d.offset(&dp)), elem) };
                advance(&mut dp, &dl);
            }
            return;
        }
        if e.comm == ffi::comm_null() {
            fatal(loc, "gmove inside a `nocomm` task");
        }
        let mut send: Vec<Vec<u8>> = vec![vec![]; np];
        let mut recv_off: Vec<Vec<usize>> = vec![vec![]; np];
        // elements this process sends to itself: destination offsets, and the values
        // (read now, written after the exchange like the others: sections may overlap)
        let (mut self_off, mut self_val): (Vec<usize>, Vec<u8>) = (vec![], vec![]);
        let (dl, sl): (Vec<usize>, Vec<usize>) = (d.idx.iter().map(|v| v.len()).collect(), s.idx.iter().map(|v| v.len()).collect());
        let (mut dp, mut sp) = (vec![0; dl.len()], vec![0; sl.len()]);
        let (mut recvs, mut provs, mut fixed) = (vec![], vec![], vec![]);
        for _ in 0..n {
            d.owners(&dp, np, &mut fixed, &mut recvs);
            s.owners(&sp, np, &mut fixed, &mut provs);
            let canonical = provs.iter().copied().min().unwrap_or(-1);
            for &r in &recvs {
                let p = if s.array.is_none() || provs.contains(&r) { r } else { canonical };
                if p == me {
                    // SAFETY: this process owns the source element.
                    let v = unsafe { std::slice::from_raw_parts(s.base.add(s.offset(&sp)), elem) };
                    if r == me {
                        self_off.push(d.offset(&dp));
                        self_val.extend_from_slice(v);
                    } else {
                        send[r as usize].extend_from_slice(v);
                    }
                } else if r == me {
                    recv_off[p as usize].push(d.offset(&dp));
                }
            }
            advance(&mut dp, &dl);
            advance(&mut sp, &sl);
        }
        let sc: Vec<c_int> = send.iter().map(|v| v.len() as c_int).collect();
        let rc: Vec<c_int> = recv_off.iter().map(|v| (v.len() * elem) as c_int).collect();
        let disp = |c: &[c_int]| -> Vec<c_int> {
            c.iter()
                .scan(0, |a, &x| {
                    let o = *a;
                    *a += x;
                    Some(o)
                })
                .collect()
        };
        let (sd, rd) = (disp(&sc), disp(&rc));
        let sbuf: Vec<u8> = send.concat();
        let mut rbuf = vec![0u8; rc.iter().map(|&x| x as usize).sum::<usize>()];
        // SAFETY: counts and displacements describe the two buffers.
        unsafe {
            ffi::xs_alltoallv(sbuf.as_ptr() as *const c_void, sc.as_ptr(), sd.as_ptr(), rbuf.as_mut_ptr() as *mut c_void, rc.as_ptr(), rd.as_ptr(), e.comm)
        };
        for (k, &o) in self_off.iter().enumerate() {
            // SAFETY: this process owns the destination element.
            unsafe { std::ptr::copy_nonoverlapping(self_val.as_ptr().add(k * elem), d.base.add(o), elem) };
        }
        for p in 0..np {
            for (k, &o) in recv_off[p].iter().enumerate() {
                let at = rd[p] as usize + k * elem;
                // SAFETY: as above.
                unsafe { std::ptr::copy_nonoverlapping(rbuf.as_ptr().add(at), d.base.add(o), elem) };
            }
        }
    })
}
