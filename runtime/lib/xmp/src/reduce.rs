//! Collectives: reduction (incl. location ops), bcast, barrier.

use crate::err::{fatal, guard, XmpcLoc};
use crate::ffi::{self, Fint};
use crate::nodes::xmpc_nodes;
use crate::state;
use std::cmp::Ordering;
use std::ffi::{c_int, c_long, c_void};

/// (communicator, my rank or -1, world ranks) of a node set; NULL = executing.
pub fn group(n: *const xmpc_nodes) -> (Fint, i32, Vec<i32>) {
    // SAFETY: node handles are never freed.
    match unsafe { n.as_ref() } {
        Some(n) => (n.comm, n.rank, n.world.clone()),
        None => {
            let e = state::exec();
            (e.comm, e.rank, e.world)
        }
    }
}

pub(crate) const TYPE_SIZES: [usize; 16] = [1, 1, 2, 2, 4, 4, 8, 8, 8, 8, 4, 8, 16, 8, 16, 1];
pub(crate) const OP_MAX: c_int = 7;
pub(crate) const OP_LASTMAX: c_int = 11;
pub(crate) const OP_LASTMIN: c_int = 12;

fn check_comm(loc: *const XmpcLoc, c: Fint) {
    if c == ffi::comm_null() {
        fatal(loc, "collective inside a `nocomm` task");
    }
}
/// Reduce `count` elements in place across `nodes` (NULL = executing nodes); non-members return at once. `-` is XMPC_OP_SUM. FIRST/LAST ops without locations act as MAX/MIN.
#[no_mangle]
pub unsafe extern "C" fn xmpc_reduction(loc: *const XmpcLoc, addr: *mut c_void, count: c_long, ty: c_int, op: c_int, nodes: *const xmpc_nodes) {
    guard(loc, || {
        let (comm, rank, _) = group(nodes);
        if rank < 0 || count <= 0 {
            return;
        }
        check_comm(loc, comm);
        if !(0..16).contains(&ty) || !(0..=OP_LASTMIN).contains(&op) {
            fatal(loc, &format!("unknown reduction type {ty} or operator {op}"));
        }
        if let Some(h) = crate::tca::reducible(ty, op).then(|| crate::tca::layer(loc, comm)).flatten() {
            // SAFETY: caller's buffer of count elements of the type.
            let rc = unsafe {
                let (t, o) = (ffi::xs_type_f(ty), ffi::xs_op_f(op));
                let buf = std::slice::from_raw_parts_mut(addr as *mut u8, count as usize * ffi::xs_type_size(t) as usize);
                h.borrow_mut().allreduce(buf, count as usize, t, o)
            };
            if rc != 0 {
                fatal(loc, &format!("reduction operator {op} is not defined for element type {ty}"));
            }
            return;
        }
        // SAFETY: caller's buffer.
        let rc = unsafe { ffi::xs_allreduce(addr, count as c_int, ty, op, comm) };
        if rc != 0 {
            fatal(loc, &format!("reduction operator {op} is not defined for element type {ty}"));
        }
    })
}

/// Added: `reduction ... async(async_id)`: as xmpc_reduction, started
/// (MPI_Iallreduce) and completed by xmpc_wait_async(async_id); `addr` must stay
/// valid and untouched until then. async_id < 0: synchronous.
#[no_mangle]
pub unsafe extern "C" fn xmpc_reduction_async(
    loc: *const XmpcLoc,
    addr: *mut c_void,
    count: c_long,
    ty: c_int,
    op: c_int,
    nodes: *const xmpc_nodes,
    async_id: c_int,
) {
    if async_id < 0 {
        return xmpc_reduction(loc, addr, count, ty, op, nodes);
    }
    guard(loc, || {
        let (comm, rank, _) = group(nodes);
        if rank < 0 || count <= 0 {
            return;
        }
        check_comm(loc, comm);
        if !(0..16).contains(&ty) || !(0..=OP_LASTMIN).contains(&op) {
            fatal(loc, &format!("unknown reduction type {ty} or operator {op}"));
        }
        let mut req: Fint = 0;
        // SAFETY: caller's buffer, valid until the wait (contract above).
        let rc = unsafe { ffi::xs_iallreduce(addr, count as c_int, ty, op, comm, &mut req) };
        if rc != 0 {
            fatal(loc, &format!("reduction operator {op} is not defined for element type {ty}"));
        }
        state::with(|s| s.pending.entry(async_id).or_default().0.push(req));
    })
}

/// A scalar read as a comparable value.
#[derive(PartialEq, PartialOrd)]
enum Val {
    I(i128),
    F(f64),
}

/// # Safety
/// `p` holds one value of type `ty`.
unsafe fn read(p: *const u8, ty: c_int) -> Val {
    use Val::*;
    match ty {
        0 => I(*(p as *const i8) as i128),
        1 => I(*p as i128),
        2 => I((p as *const i16).read_unaligned() as i128),
        3 => I((p as *const u16).read_unaligned() as i128),
        4 => I((p as *const i32).read_unaligned() as i128),
        5 => I((p as *const u32).read_unaligned() as i128),
        6 | 8 => I((p as *const i64).read_unaligned() as i128),
        7 | 9 => I((p as *const u64).read_unaligned() as i128),
        10 => F((p as *const f32).read_unaligned() as f64),
        11 => F((p as *const f64).read_unaligned()),
        12 => F(ffi::xs_ld_to_double(p as *const c_void)),
        15 => I(*p as i128),
        _ => I(0),
    }
}

/// Picks the winning record. `first` ops break ties towards the smallest
/// location values (compared in order), `last` towards the largest; plain
/// max/min with locations behave like firstmax/firstmin (MPI_MAXLOC).
pub fn winner<T: PartialOrd>(vals: &[T], locs: &[Vec<T>], is_max: bool, last: bool) -> usize {
    let mut best = 0;
    for i in 1..vals.len() {
        let c = vals[i].partial_cmp(&vals[best]).unwrap_or(Ordering::Equal);
        let better = if is_max { c == Ordering::Greater } else { c == Ordering::Less };
        let tie = c == Ordering::Equal && {
            let lc = locs[i].partial_cmp(&locs[best]).unwrap_or(Ordering::Equal);
            if last {
                lc == Ordering::Greater
            } else {
                lc == Ordering::Less
            }
        };
        if better || tie {
            best = i;
        }
    }
    best
}
/// max/min/firstmax/firstmin/lastmax/lastmin of one scalar with location variables:
/// every node gets the winning value and the winner's locs[k] (of type loc_types[k]).
/// Ties (equal values) go to the smallest location tuple (compared in order) for
/// first* and plain max/min (like MPI_MAXLOC), to the largest for last*.
#[no_mangle]
pub unsafe extern "C" fn xmpc_reduction_loc(
    loc: *const XmpcLoc,
    addr: *mut c_void,
    ty: c_int,
    op: c_int,
    nodes: *const xmpc_nodes,
    nlocs: c_int,
    locs: *const *mut c_void,
    loc_types: *const c_int,
) {
    let nl = nlocs.max(0) as usize;
    let lp: Vec<*mut c_void> = if nl > 0 { std::slice::from_raw_parts(locs, nl).to_vec() } else { vec![] };
    let lt: Vec<c_int> = if nl > 0 { std::slice::from_raw_parts(loc_types, nl).to_vec() } else { vec![] };
    guard(loc, || {
        let (comm, rank, world) = group(nodes);
        if rank < 0 {
            return;
        }
        check_comm(loc, comm);
        if !(OP_MAX..=OP_LASTMIN).contains(&op) || !(0..16).contains(&ty) || matches!(ty, 13 | 14) {
            fatal(loc, &format!("location reduction needs max/min/firstmax/... on a real type (op {op}, type {ty})"));
        }
        if lt.iter().any(|&t| !(0..16).contains(&t)) {
            fatal(loc, "unknown location variable type");
        }
        let vs = TYPE_SIZES[ty as usize];
        let rec: usize = vs + lt.iter().map(|&t| TYPE_SIZES[t as usize]).sum::<usize>();
        let mut mine = vec![0u8; rec];
        // SAFETY: caller's scalars, sizes from their types.
        unsafe {
            std::ptr::copy_nonoverlapping(addr as *const u8, mine.as_mut_ptr(), vs);
            let mut o = vs;
            for k in 0..nl {
                let s = TYPE_SIZES[lt[k] as usize];
                std::ptr::copy_nonoverlapping(lp[k] as *const u8, mine.as_mut_ptr().add(o), s);
                o += s;
            }
        }
        let np = world.len();
        let mut all = vec![0u8; rec * np];
        // SAFETY: buffers sized rec and rec*np.
        unsafe { ffi::xs_allgather(mine.as_ptr() as *const c_void, rec as c_int, all.as_mut_ptr() as *mut c_void, comm) };
        let mut vals = vec![];
        let mut lvals = vec![];
        for r in 0..np {
            let p = all[r * rec..].as_ptr();
            // SAFETY: inside `all`.
            unsafe {
                vals.push(read(p, ty));
                let mut o = vs;
                let mut l = vec![];
                for &t in &lt {
                    l.push(read(p.add(o), t));
                    o += TYPE_SIZES[t as usize];
                }
                lvals.push(l);
            }
        }
        let is_max = matches!(op, 7 | 9 | 11);
        let last = op >= OP_LASTMAX;
        let w = winner(&vals, &lvals, is_max, last);
        // SAFETY: copying the winner's record back into the caller's scalars.
        unsafe {
            let p = all[w * rec..].as_ptr();
            std::ptr::copy_nonoverlapping(p, addr as *mut u8, vs);
            let mut o = vs;
            for k in 0..nl {
                let s = TYPE_SIZES[lt[k] as usize];
                std::ptr::copy_nonoverlapping(p.add(o), lp[k] as *mut u8, s);
                o += s;
            }
        }
    })
}
/// `bcast (x) from p(k...) on q`: from_nodes NULL = executing nodes (from_index then
/// holds one 1-based executing-node number), from_index (1-based, one per dim) NULL =
/// the first node; on NULL = executing nodes. The source must be one of the `on` nodes.
/// With no `from` at all (both NULL) the source is the first node of the `on` set, as in
/// Omni (`bcast (x) on p[1:2]` sends from `p[1]`).
#[no_mangle]
pub unsafe extern "C" fn xmpc_bcast(
    loc: *const XmpcLoc,
    addr: *mut c_void,
    bytes: usize,
    from_nodes: *const xmpc_nodes,
    from_index: *const c_long,
    on: *const xmpc_nodes,
) {
    guard(loc, || {
        let (comm, rank, world) = group(on);
        if rank < 0 {
            return;
        }
        check_comm(loc, comm);
        // SAFETY: node handles are never freed; index array per the contract.
        let root_world = match unsafe { from_nodes.as_ref() } {
            Some(f) => {
                let idx = if from_index.is_null() {
                    0
                } else {
                    let ix = unsafe { std::slice::from_raw_parts(from_index, f.dims.len()) };
                    let mut c = vec![];
                    for (d, &i) in ix.iter().enumerate() {
                        if i < 1 || i > f.dims[d] as c_long {
                            fatal(loc, &format!("node {} is outside dimension {} of size {}", i, d + 1, f.dims[d]));
                        }
                        c.push(i - 1);
                    }
                    f.linear(&c) as usize
                };
                f.world[idx]
            }
            None if from_index.is_null() && !on.is_null() => world[0],
            None => {
                let e = state::exec();
                let i = if from_index.is_null() { 1 } else { unsafe { *from_index } };
                if i < 1 || i as usize > e.world.len() {
                    fatal(loc, &format!("node {i} is outside the {} executing nodes", e.world.len()));
                }
                e.world[i as usize - 1]
            }
        };
        let Some(root) = world.iter().position(|&w| w == root_world) else { fatal(loc, "the `from` node is not among the nodes of the broadcast") };
        if let Some(h) = crate::tca::layer(loc, comm) {
            // SAFETY: caller's buffer of `bytes` bytes (larger than the
            // window: the layer hands it to MPI_Bcast).
            return h.borrow_mut().bcast(unsafe { std::slice::from_raw_parts_mut(addr as *mut u8, bytes) }, root);
        }
        // SAFETY: caller's buffer of `bytes` bytes.
        unsafe { ffi::xs_bcast(addr, bytes as c_long, root as c_int, comm) };
    })
}
/// `barrier [on q]` (NULL = executing nodes).
#[no_mangle]
pub extern "C" fn xmpc_barrier(loc: *const XmpcLoc, on: *const xmpc_nodes) {
    guard(loc, || {
        let (comm, rank) = match unsafe { on.as_ref() } {
            // SAFETY: node handles are never freed.
            Some(n) => (n.comm, n.rank),
            None => state::exec_comm(),
        };
        if rank >= 0 {
            check_comm(loc, comm);
            crate::barrier::barrier(comm);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::winner;

    #[test]
    fn location_ties() {
        let v = [3, 7, 7, 1];
        let l = vec![vec![0], vec![5], vec![2], vec![9]];
        assert_eq!(winner(&v, &l, true, false), 2); // firstmax: smallest location
        assert_eq!(winner(&v, &l, true, true), 1); // lastmax: largest location
        assert_eq!(winner(&v, &l, false, false), 3);
        let v = [1, 1];
        let l = vec![vec![4, 1], vec![4, 0]];
        assert_eq!(winner(&v, &l, false, false), 1); // lexicographic locations
    }
}
