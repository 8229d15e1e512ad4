//! One member's arguments of a collective call, the checks that members agree,
//! the sizes the timing models need and the data moves of payload mode.

use super::coll::{CollKind, Shape};
use super::dtype;
use super::IN_PLACE;
use std::ffi::c_int;

/// One member's arguments of a collective call (pointers as integers: the
/// last member reads the others' while they are blocked in the meeting).
#[derive(Clone, Copy, Debug)]
pub struct CollArgs {
    pub arrive: f64,
    pub root: i32,
    pub sbuf: usize,
    pub rbuf: usize,
    pub scount: i64,
    pub rcount: i64,
    pub ssize: u64,
    pub rsize: u64,
    pub scounts: usize,
    pub sdispls: usize,
    pub rcounts: usize,
    pub rdispls: usize,
    pub op: i32,
    pub elem: Option<dtype::Elem>,
    pub color: i64,
    pub key: i64,
    pub newctx: u64,
    pub p: usize,
    /// `BSIM_Carry` flags of this member's call (1: send buffer, 2: receive buffer).
    pub carry: u8,
}

impl CollArgs {
    pub fn new(arrive: f64) -> Self {
        CollArgs {
            arrive,
            root: 0,
            sbuf: 0,
            rbuf: 0,
            scount: 0,
            rcount: 0,
            ssize: 0,
            rsize: 0,
            scounts: 0,
            sdispls: 0,
            rcounts: 0,
            rdispls: 0,
            op: 0,
            elem: None,
            color: 0,
            key: 0,
            newctx: 0,
            p: 0,
            carry: 0,
        }
    }

    /// The arguments of member `world` with its buffers and count arrays where
    /// they are while another rank runs (contexts: per-rank variables live in
    /// that rank's image).
    pub fn located(&self, world: u32) -> CollArgs {
        if !super::sched::active() {
            return *self;
        }
        let t = |p: usize| if p == 0 || p == IN_PLACE { p } else { super::sched::translate(world, p) };
        CollArgs {
            sbuf: t(self.sbuf),
            rbuf: t(self.rbuf),
            scounts: t(self.scounts),
            sdispls: t(self.sdispls),
            rcounts: t(self.rcounts),
            rdispls: t(self.rdispls),
            ..*self
        }
    }

    /// The buffers data may move from and to: all in payload mode, else those
    /// the call marked (`BSIM_Carry`); the others become null (nothing moves).
    /// A Bcast's one buffer is a source at the root and a destination elsewhere.
    pub fn carried(&self, kind: CollKind, root: bool, payload: bool) -> CollArgs {
        if payload {
            return *self;
        }
        let keep = |p: usize, bit: u8| if p == IN_PLACE || self.carry & bit != 0 { p } else { 0 };
        let sbit = if kind == CollKind::Bcast && !root { 2 } else { 1 };
        CollArgs { sbuf: keep(self.sbuf, sbit), rbuf: keep(self.rbuf, 2), ..*self }
    }
}

unsafe fn arr(p: usize, n: usize, i: usize) -> i64 {
    if p == 0 || i >= n {
        0
    } else {
        *(p as *const c_int).add(i) as i64
    }
}

/// Members of one collective call must agree on the root, the message size
/// (count x datatype size, so equal type signatures in bytes) and the reduction
/// operator. The error names the first member and the first one that differs
/// (world ranks).
pub fn check_coll(kind: CollKind, a: &[Option<CollArgs>], members: &[u32]) -> Result<(), String> {
    let a: Vec<&CollArgs> = a.iter().flatten().collect();
    if a.len() < 2 {
        return Ok(());
    }
    let differ = |what: &str, f: &dyn Fn(&CollArgs) -> Option<String>| -> Result<(), String> {
        let mut first: Option<(usize, String)> = None;
        for (i, x) in a.iter().enumerate() {
            let Some(v) = f(x) else { continue };
            match &first {
                None => first = Some((i, v)),
                Some((j, w)) if *w != v => {
                    return Err(format!("the members disagree on the {what}: rank {} gives {w}, rank {} gives {v}", members[*j], members[i]))
                }
                _ => {}
            }
        }
        Ok(())
    };
    if kind.rooted() {
        differ("root", &|x| Some(x.root.to_string()))?;
    }
    let bytes = |c: i64, t: u64| format!("{} bytes", c.max(0) as u64 * t);
    match kind {
        CollKind::Bcast | CollKind::Reduce | CollKind::Allreduce => {
            differ("message size", &|x| Some(bytes(x.scount, x.ssize)))?;
        }
        CollKind::Allgather | CollKind::Alltoall => {
            differ("message size", &|x| (x.sbuf != IN_PLACE).then(|| bytes(x.scount, x.ssize)))?;
            differ("receive size", &|x| Some(bytes(x.rcount, x.rsize)))?;
        }
        _ => {}
    }
    if matches!(kind, CollKind::Reduce | CollKind::Allreduce) {
        differ("reduction operator", &|x| Some(x.op.to_string()))?;
    }
    if matches!(kind, CollKind::Gather | CollKind::Scatter) {
        // what a member sends (receives) against the root's per-member block
        let r = a[0].root.max(0) as usize;
        if let Some(root) = a.get(r) {
            for (i, x) in a.iter().enumerate() {
                let (mine, theirs) = if kind == CollKind::Gather {
                    if x.sbuf != IN_PLACE {
                        (x.scount * x.ssize as i64, root.rcount * root.rsize as i64)
                    } else {
                        (0, 0)
                    }
                } else {
                    if x.rbuf != IN_PLACE {
                        (x.rcount * x.rsize as i64, root.scount * root.ssize as i64)
                    } else {
                        (0, 0)
                    }
                };
                if i != r && mine != theirs {
                    return Err(format!(
                        "the members disagree on the message size: rank {} {} {mine} bytes, the root (rank {}) {} {theirs} bytes per member",
                        members[i],
                        if kind == CollKind::Gather { "sends" } else { "receives" },
                        members[r],
                        if kind == CollKind::Gather { "receives" } else { "sends" },
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Sizes of a collective for the timing model.
pub fn shape_of(kind: CollKind, a: &[&CollArgs]) -> Shape {
    let p = a.len();
    let root = a[0].root.max(0) as usize;
    let mut matrix = None;
    let block: Vec<u64> = unsafe {
        match kind {
            CollKind::Barrier => vec![0; p],
            CollKind::CommSplit | CollKind::CommDup => vec![8; p],
            CollKind::Bcast | CollKind::Reduce | CollKind::Allreduce => a.iter().map(|x| x.scount as u64 * x.ssize).collect(),
            CollKind::Gather | CollKind::Allgather => {
                a.iter().map(|x| if x.sbuf == IN_PLACE { x.rcount as u64 * x.rsize } else { x.scount as u64 * x.ssize }).collect()
            }
            CollKind::Gatherv | CollKind::Allgatherv => {
                a.iter().enumerate().map(|(i, x)| if x.sbuf == IN_PLACE { arr(x.rcounts, p, i) as u64 * x.rsize } else { x.scount as u64 * x.ssize }).collect()
            }
            CollKind::Scatter => a.iter().map(|x| if x.rbuf == IN_PLACE { x.scount as u64 * x.ssize } else { x.rcount as u64 * x.rsize }).collect(),
            CollKind::Scatterv => a
                .iter()
                .enumerate()
                .map(|(i, x)| if x.rbuf == IN_PLACE { arr(a[root].scounts, p, i) as u64 * a[root].ssize } else { x.rcount as u64 * x.rsize })
                .collect(),
            CollKind::Alltoall => a.iter().map(|x| x.scount as u64 * x.ssize).collect(),
            CollKind::Alltoallv => {
                let m: Vec<Vec<u64>> = a.iter().map(|x| (0..p).map(|j| arr(x.scounts, p, j) as u64 * x.ssize).collect()).collect();
                let b = m.iter().map(|row| row.iter().sum::<u64>() / p as u64).collect();
                matrix = Some(m);
                b
            }
        }
    };
    let split = if kind == CollKind::CommSplit { a.iter().map(|x| (x.color, x.key)).collect() } else { vec![] };
    Shape { kind, root, block, matrix, split }
}

unsafe fn cp(dst: usize, src: usize, n: u64) {
    if n > 0 && dst != 0 && src != 0 && dst != IN_PLACE && src != IN_PLACE && dst != src {
        std::ptr::copy(src as *const u8, dst as *mut u8, n as usize);
    }
}

/// Payload mode: move the data of a collective between the members' buffers.
/// An operator the datatype does not define leaves the results untouched (the
/// error says so, for a warning).
pub fn move_data(kind: CollKind, a: &[&CollArgs]) -> Result<(), String> {
    let p = a.len();
    let root = a[0].root.max(0) as usize;
    unsafe {
        match kind {
            CollKind::Bcast => {
                let n = a[root].scount as u64 * a[root].ssize;
                for (i, x) in a.iter().enumerate() {
                    if i != root {
                        cp(x.sbuf, a[root].sbuf, n);
                    }
                }
            }
            CollKind::Reduce | CollKind::Allreduce => {
                let n = (a[0].scount as u64 * a[0].ssize) as usize;
                let input = |x: &CollArgs| if x.sbuf == IN_PLACE { x.rbuf } else { x.sbuf };
                if n == 0 || a.iter().any(|x| input(x) == 0) {
                    return Ok(());
                }
                let mut acc = std::slice::from_raw_parts(input(a[0]) as *const u8, n).to_vec();
                let (op, e) = (a[0].op, a[0].elem.unwrap_or(dtype::Elem::Bytes));
                for x in &a[1..] {
                    let b = std::slice::from_raw_parts(input(x) as *const u8, n);
                    if !dtype::combine(op, e, &mut acc, b) {
                        return Err(format!("payload mode: operator {op} is not defined on this datatype; result left untouched"));
                    }
                }
                for (i, x) in a.iter().enumerate() {
                    if (kind == CollKind::Allreduce || i == root) && x.rbuf != 0 && x.rbuf != IN_PLACE {
                        std::ptr::copy_nonoverlapping(acc.as_ptr(), x.rbuf as *mut u8, n);
                    }
                }
            }
            CollKind::Gather | CollKind::Gatherv => {
                let r = a[root];
                for (i, x) in a.iter().enumerate() {
                    if i == root && x.sbuf == IN_PLACE {
                        continue;
                    }
                    let (off, n) = if kind == CollKind::Gather {
                        (i as u64 * r.rcount as u64 * r.rsize, r.rcount as u64 * r.rsize)
                    } else {
                        (arr(r.rdispls, p, i) as u64 * r.rsize, arr(r.rcounts, p, i) as u64 * r.rsize)
                    };
                    cp(r.rbuf + off as usize, x.sbuf, n);
                }
            }
            CollKind::Scatter | CollKind::Scatterv => {
                let r = a[root];
                for (i, x) in a.iter().enumerate() {
                    if i == root && x.rbuf == IN_PLACE {
                        continue;
                    }
                    let (off, n) = if kind == CollKind::Scatter {
                        (i as u64 * r.scount as u64 * r.ssize, r.scount as u64 * r.ssize)
                    } else {
                        (arr(r.sdispls, p, i) as u64 * r.ssize, arr(r.scounts, p, i) as u64 * r.ssize)
                    };
                    cp(x.rbuf, r.sbuf + off as usize, n);
                }
            }
            CollKind::Allgather | CollKind::Allgatherv => {
                for (j, dst) in a.iter().enumerate() {
                    for (i, src) in a.iter().enumerate() {
                        let (off, n) = if kind == CollKind::Allgather {
                            (i as u64 * dst.rcount as u64 * dst.rsize, dst.rcount as u64 * dst.rsize)
                        } else {
                            (arr(dst.rdispls, p, i) as u64 * dst.rsize, arr(dst.rcounts, p, i) as u64 * dst.rsize)
                        };
                        if i == j && src.sbuf == IN_PLACE {
                            continue;
                        }
                        let from = if src.sbuf == IN_PLACE {
                            let soff =
                                if kind == CollKind::Allgather { i as u64 * src.rcount as u64 * src.rsize } else { arr(src.rdispls, p, i) as u64 * src.rsize };
                            src.rbuf + soff as usize
                        } else {
                            src.sbuf
                        };
                        cp(dst.rbuf + off as usize, from, n);
                    }
                }
            }
            CollKind::Alltoall | CollKind::Alltoallv => {
                for (j, dst) in a.iter().enumerate() {
                    for (i, src) in a.iter().enumerate() {
                        let (soff, roff, n) = if kind == CollKind::Alltoall {
                            (j as u64 * src.scount as u64 * src.ssize, i as u64 * dst.rcount as u64 * dst.rsize, dst.rcount as u64 * dst.rsize)
                        } else {
                            (arr(src.sdispls, p, j) as u64 * src.ssize, arr(dst.rdispls, p, i) as u64 * dst.rsize, arr(dst.rcounts, p, i) as u64 * dst.rsize)
                        };
                        cp(dst.rbuf + roff as usize, src.sbuf + soff as usize, n);
                    }
                }
            }
            CollKind::Barrier | CollKind::CommSplit | CollKind::CommDup => {}
        }
    }
    Ok(())
}
