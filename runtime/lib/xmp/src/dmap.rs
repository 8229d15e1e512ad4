//! Element-wise access to whole distributed arrays for the library routines
//! (`intrinsic.rs`): who owns a global element, where it lives locally, and two
//! collective primitives over the executing nodes, each one MPI_Alltoallv (or
//! two) whose volume is proportional to the elements requested:
//! - `fetch`: every node asks for any global elements and gets their values
//!   (request to the element's canonical owner, reply back);
//! - `store`: every node provides (element, value) pairs; each goes to every
//!   owner of the element (replicas included).
//!
//! The canonical owner of an element is its owner with coordinate 0 on every
//! node dimension the array is not distributed over (one node per element).

use crate::array::Array;
use crate::ffi;
use crate::nodes::Nodes;
use crate::state::{self, Exec};
use crate::xmp::XmpDesc;
use std::ffi::{c_int, c_void};

/// A whole distributed array seen by global row-major linear index.
pub struct DArray<'a> {
    pub a: &'a Array,
    nodes: &'a Nodes,
    /// exec rank of each node of the array's node set (by node linear index)
    exec_of: Vec<i32>,
    /// per array dim: node dim it is distributed over (-1 none)
    node_dim: Vec<i32>,
    /// local element strides
    strides: Vec<i64>,
    /// node dims constrained by some array dim
    constrained: Vec<bool>,
}

impl<'a> DArray<'a> {
    /// The array behind descriptor `d`; `what` names the argument in errors.
    pub fn new(d: XmpDesc, what: &str, e: &Exec) -> Result<DArray<'a>, String> {
        // SAFETY: a live descriptor or NULL.
        let a: &Array = unsafe { (d as *const Array).as_ref() }.ok_or(format!("{what} is not a distributed array descriptor (NULL)"))?;
        if a.dims.len() != a.ndims() {
            return Err(format!("{what} is not allocated yet"));
        }
        let t = a.template();
        let nodes = t.nodes().ok_or(format!("{what} is aligned with a template without nodes"))?;
        let exec_of: Vec<i32> = nodes.world.iter().map(|w| e.world.iter().position(|x| x == w).map_or(-1, |p| p as i32)).collect();
        if exec_of.contains(&-1) {
            return Err(format!("the nodes of {what} are not all executing"));
        }
        let node_dim: Vec<i32> = (0..a.ndims())
            .map(|d| {
                let td = a.align_dim[d];
                if td >= 0 {
                    t.node_dim[td as usize]
                } else {
                    -1
                }
            })
            .collect();
        let mut constrained = vec![false; nodes.dims.len()];
        for &nd in &node_dim {
            if nd >= 0 {
                constrained[nd as usize] = true;
            }
        }
        Ok(DArray { a, nodes, exec_of, node_dim, strides: a.strides(), constrained })
    }

    pub fn ndims(&self) -> usize {
        self.a.ndims()
    }

    pub fn extent(&self) -> &[i64] {
        &self.a.extent
    }

    pub fn elem(&self) -> usize {
        self.a.elem
    }

    pub fn count(&self) -> i64 {
        self.a.extent.iter().product()
    }

    pub fn unravel(&self, mut lin: i64, g: &mut [i64]) {
        for d in (0..self.ndims()).rev() {
            g[d] = lin % self.a.extent[d];
            lin /= self.a.extent[d];
        }
    }

    pub fn ravel(&self, g: &[i64]) -> i64 {
        g.iter().zip(&self.a.extent).fold(0, |l, (&i, &e)| l * e + i)
    }

    /// Node coordinate owning global index `g` on array dim `d` (None: any).
    fn owner_coord(&self, d: usize, g: i64) -> Option<i64> {
        let td = self.a.align_dim[d];
        (self.node_dim[d] >= 0).then(|| self.a.template().dist[td as usize].owner(g + self.a.align_off[d]))
    }

    /// Exec rank of the canonical owner of element `g`.
    pub fn canonical(&self, g: &[i64]) -> i32 {
        let mut c = vec![0i64; self.nodes.dims.len()];
        for d in 0..self.ndims() {
            if let Some(o) = self.owner_coord(d, g[d]) {
                c[self.node_dim[d] as usize] = o;
            }
        }
        self.exec_of[self.nodes.linear(&c) as usize]
    }

    /// Exec ranks of every owner of element `g`.
    pub fn owners(&self, g: &[i64], out: &mut Vec<i32>) {
        out.clear();
        let mut fixed = vec![-1i64; self.nodes.dims.len()];
        for d in 0..self.ndims() {
            if let Some(o) = self.owner_coord(d, g[d]) {
                fixed[self.node_dim[d] as usize] = o;
            }
        }
        for l in 0..self.nodes.size() {
            let c = self.nodes.coords_of(l);
            if c.iter().zip(&fixed).all(|(&x, &f)| f < 0 || x == f) {
                out.push(self.exec_of[l as usize]);
            }
        }
    }

    /// Per array dim, the global indices this node owns (empty if none).
    pub fn owned_dims(&self) -> Vec<Vec<i64>> {
        let member = self.nodes.member();
        (0..self.ndims())
            .map(|d| {
                if !member {
                    return vec![];
                }
                match self.node_dim[d] {
                    nd if nd >= 0 => {
                        let me = self.nodes.coords[nd as usize];
                        (0..self.a.extent[d]).filter(|&g| self.owner_coord(d, g) == Some(me)).collect()
                    }
                    _ => (0..self.a.extent[d]).collect(),
                }
            })
            .collect()
    }

    /// This node is the canonical owner of what it owns.
    pub fn is_canonical(&self) -> bool {
        self.nodes.member() && self.nodes.coords.iter().zip(&self.constrained).all(|(&c, &k)| k || c == 0)
    }

    /// Linear indices (ascending) of the elements this node canonically owns.
    pub fn canonical_elems(&self) -> Vec<i64> {
        if !self.is_canonical() {
            return vec![];
        }
        let dims = self.owned_dims();
        let mut out = vec![];
        if dims.iter().any(|v| v.is_empty()) {
            return out;
        }
        let mut pos = vec![0usize; dims.len()];
        let mut g = vec![0i64; dims.len()];
        loop {
            for d in 0..dims.len() {
                g[d] = dims[d][pos[d]];
            }
            out.push(self.ravel(&g));
            let mut d = dims.len();
            loop {
                if d == 0 {
                    return out;
                }
                d -= 1;
                pos[d] += 1;
                if pos[d] < dims[d].len() {
                    break;
                }
                pos[d] = 0;
            }
        }
    }

    /// Address of element `g` in the local block (valid on its owners only).
    pub fn ptr(&self, g: &[i64]) -> *mut u8 {
        let off: i64 = (0..self.ndims()).map(|d| self.a.local(d, g[d]) * self.strides[d]).sum();
        // SAFETY: on an owner the element lies inside the local block.
        unsafe { self.a.base.add(off as usize * self.a.elem) }
    }

    /// Reads element `lin` (this node must own it).
    pub fn read(&self, lin: i64, out: &mut [u8]) {
        let mut g = vec![0; self.ndims()];
        self.unravel(lin, &mut g);
        // SAFETY: owned element, `elem` bytes.
        unsafe { std::ptr::copy_nonoverlapping(self.ptr(&g), out.as_mut_ptr(), self.a.elem) };
    }

    /// Values of elements `lins` (any node's), in order. Collective.
    pub fn fetch(&self, e: &Exec, lins: &[i64]) -> Vec<u8> {
        let np = e.world.len();
        let elem = self.a.elem;
        let mut g = vec![0; self.ndims()];
        // requests grouped by canonical owner, remembering where each answer goes
        let mut req: Vec<Vec<i64>> = vec![vec![]; np];
        let mut slot: Vec<Vec<usize>> = vec![vec![]; np];
        for (k, &l) in lins.iter().enumerate() {
            self.unravel(l, &mut g);
            let o = self.canonical(&g) as usize;
            req[o].push(l);
            slot[o].push(k);
        }
        let asked: Vec<Vec<i64>> = exchange(e, &req);
        let mut reply: Vec<Vec<u8>> = Vec::with_capacity(np);
        let mut v = vec![0u8; elem];
        for list in &asked {
            let mut buf = Vec::with_capacity(list.len() * elem);
            for &l in list {
                self.read(l, &mut v);
                buf.extend_from_slice(&v);
            }
            reply.push(buf);
        }
        let got: Vec<Vec<u8>> = exchange(e, &reply);
        let mut out = vec![0u8; lins.len() * elem];
        for p in 0..np {
            for (j, &k) in slot[p].iter().enumerate() {
                out[k * elem..(k + 1) * elem].copy_from_slice(&got[p][j * elem..(j + 1) * elem]);
            }
        }
        out
    }

    /// Writes `vals` (elem bytes each) to elements `lins` on all their owners. Collective.
    pub fn store(&self, e: &Exec, lins: &[i64], vals: &[u8]) {
        let np = e.world.len();
        let elem = self.a.elem;
        let rec = 8 + elem;
        let mut g = vec![0; self.ndims()];
        let mut out: Vec<Vec<u8>> = vec![vec![]; np];
        let mut owners = vec![];
        for (k, &l) in lins.iter().enumerate() {
            self.unravel(l, &mut g);
            self.owners(&g, &mut owners);
            for &o in &owners {
                out[o as usize].extend_from_slice(&l.to_ne_bytes());
                out[o as usize].extend_from_slice(&vals[k * elem..(k + 1) * elem]);
            }
        }
        let got: Vec<Vec<u8>> = exchange(e, &out);
        for buf in got {
            for r in buf.chunks_exact(rec) {
                let l = i64::from_ne_bytes(r[..8].try_into().unwrap());
                self.unravel(l, &mut g);
                // SAFETY: this node owns element l (it was sent here as an owner).
                unsafe { std::ptr::copy_nonoverlapping(r[8..].as_ptr(), self.ptr(&g), elem) };
            }
        }
    }
}

/// Plain-old-data values that travel as bytes.
pub trait Pod: Copy + Default {}
macro_rules! pod {
    ($($t:ty),*) => {$(impl Pod for $t {})*};
}
pod!(i8, u8, i16, u16, i32, u32, i64, u64, f32, f64);

fn as_bytes<T: Pod>(v: &[T]) -> &[u8] {
    // SAFETY: Pod types have no padding or invalid bit patterns concerns for reading.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
}

/// Personalised all-to-all of typed vectors over the executing nodes.
pub fn exchange<T: Pod>(e: &Exec, send: &[Vec<T>]) -> Vec<Vec<T>> {
    let np = e.world.len();
    let sz = std::mem::size_of::<T>();
    if np == 1 {
        return send.to_vec();
    }
    let sc: Vec<c_int> = send.iter().map(|v| (v.len() * sz) as c_int).collect();
    let mut rc = vec![0 as c_int; np];
    let four = vec![4 as c_int; np];
    let disp: Vec<c_int> = (0..np as c_int).map(|i| i * 4).collect();
    // SAFETY: one int per node each way.
    unsafe {
        ffi::xs_alltoallv(sc.as_ptr() as *const c_void, four.as_ptr(), disp.as_ptr(), rc.as_mut_ptr() as *mut c_void, four.as_ptr(), disp.as_ptr(), e.comm)
    };
    let prefix = |c: &[c_int]| -> Vec<c_int> {
        c.iter()
            .scan(0, |a, &x| {
                let o = *a;
                *a += x;
                Some(o)
            })
            .collect()
    };
    let (sd, rd) = (prefix(&sc), prefix(&rc));
    let sbuf: Vec<u8> = send.iter().flat_map(|v| as_bytes(v).iter().copied()).collect();
    let total: usize = rc.iter().map(|&x| x as usize).sum();
    let mut rbuf: Vec<T> = vec![T::default(); total / sz.max(1)];
    // SAFETY: counts and displacements describe both buffers.
    unsafe {
        ffi::xs_alltoallv(sbuf.as_ptr() as *const c_void, sc.as_ptr(), sd.as_ptr(), rbuf.as_mut_ptr() as *mut c_void, rc.as_ptr(), rd.as_ptr(), e.comm);
    }
    (0..np).map(|p| rbuf[rd[p] as usize / sz..(rd[p] + rc[p]) as usize / sz].to_vec()).collect()
}

/// Every node's `v` (one value each), in exec rank order.
pub fn allgather<T: Pod>(e: &Exec, v: T) -> Vec<T> {
    let np = e.world.len();
    let mut out = vec![T::default(); np];
    if np == 1 {
        out[0] = v;
        return out;
    }
    // SAFETY: one T from each node.
    unsafe { ffi::xs_allgather(&v as *const T as *const c_void, std::mem::size_of::<T>() as c_int, out.as_mut_ptr() as *mut c_void, e.comm) };
    out
}

/// The executing nodes, or an error inside a `nocomm` task.
pub fn exec_comm() -> Result<Exec, String> {
    let e = state::exec();
    if e.world.len() > 1 && e.comm == ffi::comm_null() {
        return Err("called inside a task without a communicator".into());
    }
    Ok(e)
}
