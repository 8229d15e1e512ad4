//! Node sets (`nodes p(...)`, `nodes q(...) = p(...)`).
//!
//! Nodes are numbered in round order with dim 0 fastest (Omni's order); the
//! set's communicator ranks nodes in that order.

use crate::err::{fatal, fatal_all, guard, XmpcLoc};
use crate::ffi::{self, Fint};
use crate::state;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_int, c_long};

/// A node set (`xmpc_nodes` in C).
#[allow(non_camel_case_types)]
pub struct xmpc_nodes {
    pub dims: Vec<i64>,
    /// World rank of each node, by linear index.
    pub world: Vec<i32>,
    /// MPI_COMM_NULL when this process is not a member.
    pub comm: Fint,
    pub rank: i32,
    pub coords: Vec<i64>,
    /// node dim → communicator of the nodes that differ only in that dim.
    pub lines: RefCell<HashMap<usize, Fint>>,
    /// Communicator of the members on this shared-memory node, and the rank
    /// there of each node (by linear index; -1 = elsewhere). Built on first use.
    pub shm: RefCell<Option<(Fint, Vec<i32>)>>,
    /// `nodes q(...) = p(...)`: the parent p and, per parent dim, the 1-based
    /// (lower, upper, stride) selected (xmp_nodes_equiv). NULL for a primary set.
    pub parent: *const xmpc_nodes,
    pub equiv: Vec<[i64; 3]>,
    /// Made from a node reference with `*` (`nodes row[2] = p[0:2][*]`): the parent
    /// dims given as `*` (each node holds the set at its own coordinate there, so
    /// the set is one of a family; gmove treats the family's members as replicas).
    pub star_dims: RefCell<Vec<usize>>,
}

pub type Nodes = xmpc_nodes;

impl Nodes {
    pub fn member(&self) -> bool {
        self.rank >= 0
    }

    pub fn size(&self) -> i64 {
        self.dims.iter().product()
    }

    pub fn linear(&self, coords: &[i64]) -> i64 {
        let mut l = 0;
        for d in (0..self.dims.len()).rev() {
            l = l * self.dims[d] + coords[d];
        }
        l
    }

    pub fn coords_of(&self, mut l: i64) -> Vec<i64> {
        self.dims
            .iter()
            .map(|&s| {
                let c = l % s;
                l /= s;
                c
            })
            .collect()
    }

    fn make(dims: Vec<i64>, world: Vec<i32>, comm: Fint) -> Nodes {
        let me = state::world_rank();
        let rank = world.iter().position(|&w| w == me).map_or(-1, |r| r as i32);
        let mut n = Nodes {
            dims,
            world,
            comm,
            rank,
            coords: vec![],
            lines: RefCell::new(HashMap::new()),
            shm: RefCell::new(None),
            parent: std::ptr::null(),
            equiv: vec![],
            star_dims: RefCell::new(vec![]),
        };
        if rank >= 0 {
            n.coords = n.coords_of(rank as i64);
        } else {
            n.comm = ffi::comm_null();
        }
        n
    }

    /// Communicator along node dim `d` (ranks = coordinate in d), members only.
    pub fn line(&self, d: usize) -> Fint {
        if let Some(&c) = self.lines.borrow().get(&d) {
            return c;
        }
        let mut other = self.coords.clone();
        other[d] = 0;
        let color = self.linear(&other) as c_int;
        // SAFETY: collective over this set's members; comm is valid for members.
        let c = unsafe { ffi::xs_comm_split(self.comm, color, self.coords[d] as c_int) };
        self.lines.borrow_mut().insert(d, c);
        c
    }

    /// The shared-memory communicator of this member and every node's rank in
    /// it (collective over the members on first call).
    pub fn shm(&self) -> (Fint, Vec<i32>) {
        if let Some(x) = self.shm.borrow().as_ref() {
            return x.clone();
        }
        // a set of the whole world in rank order splits as the world did for the
        // node arena (the same on every process: the arena exists everywhere or nowhere)
        let whole = self.world.len() == state::with(|s| s.world_size) as usize && self.world.iter().enumerate().all(|(i, &w)| w == i as i32);
        let c = match crate::shm::node_comm() {
            Some(c) if whole => c,
            _ => crate::shm::split_node(self.comm),
        };
        let out = crate::shm::ranks_in(self.comm, c);
        *self.shm.borrow_mut() = Some((c, out.clone()));
        (c, out)
    }

    /// Linear indices of the nodes whose coordinate in every dim `d` is in
    /// `per[d]` (0-based), dim 0 fastest.
    pub fn select_coords(&self, per: &[Vec<i64>]) -> Vec<usize> {
        let total: usize = per.iter().map(|v| v.len()).product();
        let mut out = Vec::with_capacity(total);
        for mut k in 0..total {
            let mut c = vec![0; per.len()];
            for d in 0..per.len() {
                c[d] = per[d][k % per[d].len()];
                k /= per[d].len();
            }
            out.push(self.linear(&c) as usize);
        }
        out
    }

    /// A node set of the nodes `idx` of this one (shape `dims`), its communicator
    /// made by those members only. Called by every member of this set.
    pub fn subset(&self, dims: Vec<i64>, idx: &[usize]) -> Nodes {
        let world: Vec<i32> = idx.iter().map(|&i| self.world[i]).collect();
        let comm = if self.rank >= 0 && idx.contains(&(self.rank as usize)) { group_comm(self.comm, idx) } else { ffi::comm_null() };
        Nodes::make(dims, world, comm)
    }

    /// Parent linear indices selected by 1-based triplets (st == 0: whole dim),
    /// in dim-0-fastest order.
    pub fn select(&self, lo: &[i64], hi: &[i64], st: &[i64]) -> Result<Vec<usize>, String> {
        let mut per: Vec<Vec<i64>> = vec![];
        for d in 0..self.dims.len() {
            if st[d] == 0 {
                per.push((0..self.dims[d]).collect());
                continue;
            }
            if lo[d] < 1 || hi[d] > self.dims[d] || st[d] < 0 {
                return Err(format!("node reference {}:{}:{} is outside dimension {} of size {}", lo[d], hi[d], st[d], d + 1, self.dims[d]));
            }
            per.push((lo[d]..=hi[d]).step_by(st[d] as usize).map(|x| x - 1).collect());
        }
        Ok(self.select_coords(&per))
    }
}

impl Nodes {
    /// World ranks (by linear index) of every member of the family of a set made
    /// with `*` in its node reference: one set per combination of coordinates in
    /// the `*` dims of the parent, in the same node order as this set. A set
    /// without `*` is its own only member.
    pub fn family(&self) -> Vec<Vec<i32>> {
        let stars = self.star_dims.borrow();
        // SAFETY: parent handles are never freed.
        let parent = unsafe { self.parent.as_ref() };
        let Some(p) = parent.filter(|_| !stars.is_empty()) else {
            return vec![self.world.clone()];
        };
        let mut per: Vec<Vec<i64>> = self.equiv.iter().map(|&[lo, hi, st]| (lo..=hi).step_by(st.max(1) as usize).map(|x| x - 1).collect()).collect();
        let combos: i64 = stars.iter().map(|&d| p.dims[d]).product();
        (0..combos)
            .map(|mut k| {
                for &d in stars.iter() {
                    per[d] = vec![k % p.dims[d]];
                    k /= p.dims[d];
                }
                p.select_coords(&per).iter().map(|&i| p.world[i]).collect()
            })
            .collect()
    }
}

/// Comm over `idx` (ranks of `parent`), created by those members only.
pub fn group_comm(parent: Fint, idx: &[usize]) -> Fint {
    let ranks: Vec<c_int> = idx.iter().map(|&i| i as c_int).collect();
    // SAFETY: called by exactly the listed members of `parent`.
    unsafe { ffi::xs_comm_create_group(parent, ranks.len() as c_int, ranks.as_ptr(), 7001) }
}

unsafe fn slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(p, n)
    }
}
/// `nodes p(s0, s1, ...)` over the executing nodes; a size of 0 means `*`. The product
/// must equal the number of executing processes (error naming both otherwise);
/// XMP_NODE_SIZE<d> (d 0-based) sizes `*` dims that are not last. Node sets of one
/// shape over the same executing nodes are the same object (made once).
#[no_mangle]
pub unsafe extern "C" fn xmpc_nodes_new(loc: *const XmpcLoc, ndims: c_int, sizes: *const c_long) -> *mut xmpc_nodes {
    let sizes = slice(sizes, ndims as usize);
    guard(loc, || {
        let e = state::exec();
        let n = e.world.len() as i64;
        let mut dims: Vec<i64> = sizes.to_vec();
        let last_star = dims.iter().rposition(|&s| s <= 0);
        for (d, size) in dims.iter_mut().enumerate() {
            if *size <= 0 && Some(d) != last_star {
                let v = std::env::var(format!("XMP_NODE_SIZE{d}")).ok().and_then(|v| v.trim().parse::<i64>().ok());
                match v {
                    Some(v) if v > 0 => *size = v,
                    _ => fatal_all(loc, &format!("node dimension {} is `*` but XMP_NODE_SIZE{d} is not set", d + 1)),
                }
            }
        }
        if let Some(d) = last_star {
            let rest: i64 = dims.iter().enumerate().filter(|&(i, _)| i != d).map(|(_, &s)| s).product();
            if rest == 0 || n % rest != 0 {
                fatal_all(loc, &format!("{n} executing nodes cannot be shaped with fixed dimensions of total size {rest}"));
            }
            dims[d] = n / rest;
        }
        let total: i64 = dims.iter().product();
        if total != n {
            fatal_all(loc, &format!("nodes size {total} does not match the number of executing nodes {n}"));
        }
        // one object per (executing nodes, shape): a procedure's `nodes` runs at every
        // call and must not take a communicator each time (MPI has a few thousand)
        let key = (e.world.clone(), dims.clone());
        if let Some(h) = state::with(|s| s.nodes_cache.get(&key).copied()) {
            return h as *mut xmpc_nodes;
        }
        // SAFETY: collective over the executing nodes.
        let comm = unsafe { ffi::xs_comm_dup(e.comm) };
        let h = Box::into_raw(Box::new(Nodes::make(dims, e.world, comm)));
        state::with(|s| s.nodes_cache.insert(key, h as usize));
        h
    })
}
/// `nodes q(...) = p(lo:hi:st, ...)`: per parent dim a triplet, 1-based; st == 0 means
/// `*` (the whole dimension). `sizes` is q's shape (a 0 entry is inferred); selected
/// nodes are ordered with the parent's dim 0 fastest. Collective over the executing
/// nodes; q's communicator is built by its members only.
#[no_mangle]
pub unsafe extern "C" fn xmpc_nodes_new_sub(
    loc: *const XmpcLoc,
    ndims: c_int,
    sizes: *const c_long,
    parent: *const xmpc_nodes,
    lo: *const c_long,
    hi: *const c_long,
    st: *const c_long,
) -> *mut xmpc_nodes {
    let p = match parent.as_ref() {
        Some(p) => p,
        None => fatal(loc, "no parent node set"),
    };
    let pd = p.dims.len();
    let (lo, hi, st) = (slice(lo, pd), slice(hi, pd), slice(st, pd));
    let sizes = slice(sizes, ndims as usize);
    guard(loc, || {
        let idx = p.select(lo, hi, st).unwrap_or_else(|e| fatal(loc, &e));
        let mut dims: Vec<i64> = sizes.to_vec();
        let fixed: i64 = dims.iter().filter(|&&s| s > 0).product();
        if let Some(d) = dims.iter().position(|&s| s <= 0) {
            dims[d] = idx.len() as i64 / fixed.max(1);
        }
        if dims.is_empty() {
            dims.push(idx.len() as i64);
        }
        let total: i64 = dims.iter().product();
        if total != idx.len() as i64 {
            fatal(loc, &format!("nodes size {total} does not match the {} referenced nodes", idx.len()));
        }
        let world: Vec<i32> = idx.iter().map(|&i| p.world[i]).collect();
        let me = p.rank;
        let comm = if me >= 0 && idx.contains(&(me as usize)) { group_comm(p.comm, &idx) } else { ffi::comm_null() };
        let mut q = Nodes::make(dims, world, comm);
        q.parent = parent;
        q.equiv = (0..pd).map(|d| if st[d] == 0 { [1, p.dims[d], 1] } else { [lo[d], hi[d], st[d]] }).collect();
        Box::into_raw(Box::new(q))
    })
}

fn get<'a>(n: *const xmpc_nodes) -> Option<&'a Nodes> {
    // SAFETY: handles come from xmpc_nodes_new* and are never freed.
    unsafe { n.as_ref() }
}
/// Marks parent dim `dim` (0-based) of a node set made from a node reference with
/// `*` there: its members differ from node to node (each node's own coordinate),
/// and gmove writes/reads every member of the family (one per coordinate).
#[no_mangle]
pub extern "C" fn xmpc_nodes_mark_per_node(n: *const xmpc_nodes, dim: c_int) {
    if let Some(n) = get(n) {
        if dim >= 0 && !n.star_dims.borrow().contains(&(dim as usize)) {
            n.star_dims.borrow_mut().push(dim as usize);
        }
    }
}
/// 1 when this process belongs to the node set.
#[no_mangle]
pub extern "C" fn xmpc_nodes_is_member(n: *const xmpc_nodes) -> c_int {
    get(n).is_some_and(|n| n.member()) as c_int
}
/// 0-based rank in the node set, -1 if not a member.
#[no_mangle]
pub extern "C" fn xmpc_nodes_rank(n: *const xmpc_nodes) -> c_int {
    get(n).map_or(-1, |n| n.rank)
}
/// Number of nodes in the set.
#[no_mangle]
pub extern "C" fn xmpc_nodes_size(n: *const xmpc_nodes) -> c_int {
    get(n).map_or(0, |n| n.size() as c_int)
}
/// Size of node dimension `dim` (0-based).
#[no_mangle]
pub extern "C" fn xmpc_nodes_dim_size(n: *const xmpc_nodes, dim: c_int) -> c_int {
    get(n).and_then(|n| n.dims.get(dim as usize)).map_or(0, |&s| s as c_int)
}
/// 0-based coordinate of this process in node dimension `dim` (-1 if not a member).
#[no_mangle]
pub extern "C" fn xmpc_nodes_coord(n: *const xmpc_nodes, dim: c_int) -> c_int {
    get(n).and_then(|n| n.coords.get(dim as usize)).map_or(-1, |&c| c as c_int)
}
