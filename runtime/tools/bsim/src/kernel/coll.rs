//! Collective timing: measured tables, or the collective decomposed into a
//! point-to-point algorithm and run through a small exact simulation that uses
//! the same send/receive rules as the engine (eager, rendezvous, overheads).

use super::model::{CollMode, Platform};
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CollKind {
    Barrier,
    Bcast,
    Reduce,
    Allreduce,
    Gather,
    Gatherv,
    Scatter,
    Scatterv,
    Allgather,
    Allgatherv,
    Alltoall,
    Alltoallv,
    CommSplit,
    CommDup,
}

impl CollKind {
    pub fn name(self) -> &'static str {
        match self {
            CollKind::Barrier => "barrier",
            CollKind::Bcast => "bcast",
            CollKind::Reduce => "reduce",
            CollKind::Allreduce => "allreduce",
            CollKind::Gather => "gather",
            CollKind::Gatherv => "gatherv",
            CollKind::Scatter => "scatter",
            CollKind::Scatterv => "scatterv",
            CollKind::Allgather => "allgather",
            CollKind::Allgatherv => "allgatherv",
            CollKind::Alltoall => "alltoall",
            CollKind::Alltoallv => "alltoallv",
            CollKind::CommSplit => "comm_split",
            CollKind::CommDup => "comm_dup",
        }
    }

    /// True for the collectives with a root argument.
    pub fn rooted(self) -> bool {
        matches!(self, CollKind::Bcast | CollKind::Reduce | CollKind::Gather | CollKind::Gatherv | CollKind::Scatter | CollKind::Scatterv)
    }
}

/// Sizes of one collective call as seen by the timing model.
pub struct Shape {
    pub kind: CollKind,
    /// Comm rank of the root (rooted collectives).
    pub root: usize,
    /// bytes[i][j]: what comm rank i sends to comm rank j (alltoall family);
    /// for the others only `block[i]` is used: rank i's contribution (or the
    /// whole message for bcast/reduce/allreduce).
    pub block: Vec<u64>,
    pub matrix: Option<Vec<Vec<u64>>>,
    /// (color, key) of each comm rank (`Comm_split`; empty for the others).
    pub split: Vec<(i64, i64)>,
}

/// One blocking step of a rank: post all sends and receives, wait for all.
#[derive(Default, Clone, Debug)]
pub struct Op {
    pub sends: Vec<(usize, u64, u32)>, // peer, bytes, per-pair sequence number
    pub recvs: Vec<(usize, u64, u32)>,
}

struct Builder<'a> {
    ops: Vec<Vec<Op>>,
    seq: HashMap<(usize, usize), u32>,
    /// Record only this rank's steps (each rank of an NSIM run builds its own
    /// part: all p parts on every rank were O(p^3) work and memory).
    only: Option<usize>,
    /// Evaluate each step as it is generated instead of recording it (exit
    /// times in O(p) memory: an alltoall's p^2 messages are never stored).
    eval: Option<Eval<'a>>,
}

impl<'a> Builder<'a> {
    fn new(p: usize) -> Self {
        Builder { ops: vec![vec![]; p], seq: HashMap::new(), only: None, eval: None }
    }
    fn next(&mut self, a: usize, b: usize) -> u32 {
        let s = self.seq.entry((a, b)).or_insert(0);
        *s += 1;
        *s
    }
    /// One step where each (src, dst, bytes) pair is posted at both ends.
    /// Steps are appended in the given order on each rank.
    fn step(&mut self, msgs: &[(usize, usize, u64)]) {
        if let Some(e) = &mut self.eval {
            e.step(msgs);
            return;
        }
        if let Some(me) = self.only {
            // sequence numbers count per pair, so they come out the same
            // when only the pairs that involve `me` are counted
            let mut op = Op::default();
            let mut touched = false;
            for &(s, d, b) in msgs {
                if s == me || d == me {
                    let q = self.next(s, d);
                    if s == me {
                        op.sends.push((d, b, q));
                    }
                    if d == me {
                        op.recvs.push((s, b, q));
                    }
                    touched = true;
                }
            }
            if touched {
                self.ops[me].push(op);
            }
            return;
        }
        let p = self.ops.len();
        let mut cur: Vec<Op> = vec![Op::default(); p];
        let mut touched = vec![false; p];
        for &(s, d, b) in msgs {
            let q = self.next(s, d);
            cur[s].sends.push((d, b, q));
            cur[d].recvs.push((s, b, q));
            touched[s] = true;
            touched[d] = true;
        }
        for (r, op) in cur.into_iter().enumerate() {
            if touched[r] {
                self.ops[r].push(op);
            }
        }
    }
    /// A single message as its own step on both ranks.
    fn msg(&mut self, s: usize, d: usize, b: u64) {
        self.step(&[(s, d, b)]);
    }
}

fn binomial_bcast(b: &mut Builder, p: usize, root: usize, bytes: u64) {
    binomial_bcast_on(b, p, bytes, &|v| (v + root) % p)
}

/// The binomial bcast over `p` members, vertex v (0: the root) being comm rank `real(v)`.
fn binomial_bcast_on(b: &mut Builder, p: usize, bytes: u64, real: &dyn Fn(usize) -> usize) {
    // MPICH's binomial tree, on vrank = (rank - root) mod p, as a list of
    // messages in an order that respects each rank's program order.
    // MPICH sends to children from the largest mask down; a rank receives first.
    let mut children: Vec<Vec<usize>> = vec![vec![]; p];
    #[allow(clippy::needless_range_loop)] // v is a vertex, not only an index
    for v in 0..p {
        let mut m = if v == 0 { p.next_power_of_two() } else { v & v.wrapping_neg() };
        m >>= 1;
        while m > 0 {
            if v + m < p {
                children[v].push(v + m);
            }
            m >>= 1;
        }
    }
    // emit in BFS order so every receive precedes the child's own sends
    let mut order = vec![0usize];
    let mut i = 0;
    while i < order.len() {
        let v = order[i];
        for &c in &children[v] {
            b.msg(real(v), real(c), bytes);
            order.push(c);
        }
        i += 1;
    }
}

fn binomial_reduce(b: &mut Builder, p: usize, root: usize, bytes: u64) {
    let real = |v: usize| (v + root) % p;
    // each vrank receives from children (increasing mask) then sends to its parent
    let mut mask = 1;
    while mask < p {
        let mut msgs = vec![];
        for v in 0..p {
            if v & (2 * mask - 1) == mask {
                msgs.push((real(v), real(v - mask), bytes));
            }
        }
        for m in msgs {
            b.msg(m.0, m.1, m.2);
        }
        mask <<= 1;
    }
}

fn recursive_doubling(b: &mut Builder, p: usize, bytes: u64) {
    let pof2 = if p.is_power_of_two() { p } else { p.next_power_of_two() / 2 };
    let rem = p - pof2;
    for r in 0..2 * rem {
        if r % 2 == 0 {
            b.msg(r, r + 1, bytes);
        }
    }
    let real = |nr: usize| if nr < rem { nr * 2 + 1 } else { nr + rem };
    let mut mask = 1;
    while mask < pof2 {
        let mut msgs = vec![];
        for nr in 0..pof2 {
            msgs.push((real(nr), real(nr ^ mask), bytes));
        }
        b.step(&msgs);
        mask <<= 1;
    }
    for r in 0..2 * rem {
        if r % 2 == 1 {
            b.msg(r, r - 1, bytes);
        }
    }
}

/// `MPI_Comm_split` as SMPI 3.32 does it (smpi_comm.cpp, `Comm::split`): rank 0
/// gathers every (color, key) pair (a linear gather of two ints), then, group by
/// group in the order of their lowest member, sends each member but itself the
/// new group (one pointer, 8 bytes; detached below the eager threshold), and each
/// new communicator broadcasts its id (one int) from its rank 0. Members with
/// `MPI_UNDEFINED` only take part in the gather.
fn comm_split(b: &mut Builder, p: usize, split: &[(i64, i64)]) {
    let undefined = super::UNDEFINED as i64;
    let colors: Vec<(i64, i64)> = if split.len() == p { split.to_vec() } else { vec![(0, 0); p] };
    let msgs: Vec<_> = (1..p).map(|r| (r, 0, 8)).collect();
    b.step(&msgs);
    // groups in the order of their lowest member; members by (key, old rank)
    let mut first: HashMap<i64, usize> = HashMap::new();
    let mut groups: Vec<Vec<(i64, usize)>> = vec![];
    for (r, &(c, k)) in colors.iter().enumerate() {
        if c == undefined {
            continue;
        }
        let g = *first.entry(c).or_insert_with(|| {
            groups.push(vec![]);
            groups.len() - 1
        });
        groups[g].push((k, r));
    }
    groups.iter_mut().for_each(|g| g.sort());
    let sends: Vec<_> = groups.iter().flatten().filter(|&&(_, r)| r != 0).map(|&(_, r)| (0, r, 8)).collect();
    if !sends.is_empty() {
        b.step(&sends);
    }
    for g in &groups {
        binomial_bcast_on(b, g.len(), 4, &|v| g[v].1);
    }
}

fn build(shape: &Shape, p: usize) -> Builder<'static> {
    build_for(shape, p, None)
}

fn build_for(shape: &Shape, p: usize, only: Option<usize>) -> Builder<'static> {
    let mut b = Builder::new(p);
    b.only = only;
    generate(&mut b, shape, p);
    b
}

/// Generate the algorithm's steps into `b` (recorded or evaluated).
fn generate(b: &mut Builder, shape: &Shape, p: usize) {
    let root = shape.root;
    let blk = &shape.block;
    match shape.kind {
        CollKind::Barrier => {
            let mut k = 1;
            while k < p {
                let msgs: Vec<_> = (0..p).map(|r| (r, (r + k) % p, 0)).collect();
                b.step(&msgs);
                k <<= 1;
            }
        }
        CollKind::Bcast => binomial_bcast(b, p, root, blk[root]),
        CollKind::Reduce => binomial_reduce(b, p, root, blk[root]),
        CollKind::Allreduce => recursive_doubling(b, p, blk[0]),
        // SMPI 3.32's Comm constructor: the new communicator's id, one int
        // broadcast from its rank 0 (smpi/bcast, binomial_tree when exported)
        CollKind::CommDup => binomial_bcast(b, p, 0, 4),
        CollKind::CommSplit => comm_split(b, p, &shape.split),
        CollKind::Gather | CollKind::Gatherv => {
            let msgs: Vec<_> = (0..p).filter(|&r| r != root).map(|r| (r, root, blk[r])).collect();
            b.step(&msgs);
        }
        CollKind::Scatter | CollKind::Scatterv => {
            let msgs: Vec<_> = (0..p).filter(|&r| r != root).map(|r| (root, r, blk[r])).collect();
            b.step(&msgs);
        }
        CollKind::Allgather | CollKind::Allgatherv => {
            for s in 0..p.saturating_sub(1) {
                let msgs: Vec<_> = (0..p).map(|r| (r, (r + 1) % p, blk[(r + p - s) % p])).collect();
                b.step(&msgs);
            }
        }
        CollKind::Alltoall | CollKind::Alltoallv => {
            let m = shape.matrix.as_ref();
            for s in 1..p {
                let msgs: Vec<_> = (0..p)
                    .map(|r| {
                        let d = (r + s) % p;
                        (r, d, m.map_or(blk[r], |m| m[r][d]))
                    })
                    .collect();
                b.step(&msgs);
            }
        }
    }
}

/// Exit times of a decomposed collective, evaluated step by step as the
/// algorithm generates them. Both ends of every message are in the same step
/// and each rank's steps come in its program order, so a step's start times
/// are known when it is generated: the same arithmetic as running every
/// rank's schedule, with O(p) memory.
struct Eval<'a> {
    plat: &'a Platform,
    world: &'a [u32],
    t: Vec<f64>,
    t0: Vec<f64>,
    done: Vec<f64>,
    nsend: Vec<u32>,
    recv: Vec<bool>,
    mark: Vec<bool>,
    touched: Vec<usize>,
}

impl Eval<'_> {
    fn step(&mut self, msgs: &[(usize, usize, u64)]) {
        let pl = self.plat;
        for &(s, d, _) in msgs {
            for r in [s, d] {
                if !self.mark[r] {
                    self.mark[r] = true;
                    self.touched.push(r);
                    self.t0[r] = self.t[r];
                    self.done[r] = self.t[r];
                    self.nsend[r] = 0;
                    self.recv[r] = false;
                }
            }
        }
        for &(s, d, bytes) in msgs {
            self.nsend[s] += 1;
            let ts = self.t0[s] + self.nsend[s] as f64 * pl.o_isend;
            let wire = pl.transfer(self.world[s], self.world[d], bytes);
            // the sender: eager goes on at once, rendezvous waits for the receive
            self.done[s] = if bytes < pl.eager_threshold { self.done[s].max(ts) } else { self.done[s].max(ts.max(self.t0[d]) + wire) };
            let start = if bytes < pl.async_threshold && bytes < pl.eager_threshold { ts } else { ts.max(self.t0[d]) };
            self.done[d] = self.done[d].max((start + wire).max(self.t0[d]));
            self.recv[d] = true;
        }
        for r in self.touched.drain(..) {
            self.mark[r] = false;
            self.t[r] = if self.recv[r] { self.done[r] + pl.o_recv } else { self.done[r] };
        }
    }
}

/// Exit time of each comm rank for the decomposed algorithm, given arrival
/// times (`world[i]`: world rank of comm rank i, for the link model).
pub fn p2p_times(plat: &Platform, shape: &Shape, arrive: &[f64], world: &[u32]) -> Vec<f64> {
    let p = arrive.len();
    if p <= 1 {
        return arrive.to_vec();
    }
    let mut b = Builder {
        ops: vec![],
        seq: HashMap::new(),
        only: None,
        eval: Some(Eval {
            plat,
            world,
            t: arrive.to_vec(),
            t0: vec![0.0; p],
            done: vec![0.0; p],
            nsend: vec![0; p],
            recv: vec![false; p],
            mark: vec![false; p],
            touched: vec![],
        }),
    };
    generate(&mut b, shape, p);
    b.eval.unwrap().t
}

/// Bytes used to look a collective up in a table: the message (bcast, reduce,
/// allreduce) or the per-rank block (gather, allgather, alltoall families).
pub fn table_bytes(shape: &Shape) -> u64 {
    let p = shape.block.len().max(1) as u64;
    match shape.kind {
        CollKind::Bcast | CollKind::Reduce | CollKind::Scatter | CollKind::Gather => shape.block[shape.root],
        CollKind::Alltoall | CollKind::Alltoallv => match &shape.matrix {
            Some(m) => m.iter().flatten().sum::<u64>() / (p * p),
            None => shape.block[0],
        },
        _ => shape.block.iter().sum::<u64>() / p,
    }
}

/// Each comm rank's steps of the decomposed algorithm (for running them as
/// real point-to-point messages, as the NSIM network model does).
pub fn schedule(shape: &Shape) -> Vec<Vec<Op>> {
    let p = shape.block.len();
    if p <= 1 {
        return vec![vec![]; p];
    }
    build(shape, p).ops
}

/// Rank `me`'s steps of [`schedule`], built without the other ranks' parts.
pub fn schedule_for(shape: &Shape, me: usize) -> Vec<Op> {
    let p = shape.block.len();
    if p <= 1 {
        return vec![];
    }
    build_for(shape, p, Some(me)).ops.swap_remove(me)
}

/// Exit times: table (max arrival + table time) or p2p decomposition.
/// `warn` receives (op, message) for extrapolated or missing table entries.
pub fn times(plat: &Platform, shape: &Shape, arrive: &[f64], world: &[u32], warn: &mut dyn FnMut(&str, String)) -> Vec<f64> {
    if let Some(t) = table_times(plat, shape, arrive, warn) {
        return t;
    }
    p2p_times(plat, shape, arrive, world)
}

/// Exit times from the table in table mode (None: p2p mode, or no entries
/// for this operation, after a warning).
pub fn table_times(plat: &Platform, shape: &Shape, arrive: &[f64], warn: &mut dyn FnMut(&str, String)) -> Option<Vec<f64>> {
    if plat.coll_mode == CollMode::Table {
        let op = shape.kind.name();
        let bytes = table_bytes(shape);
        let p = arrive.len() as u64;
        match plat.coll.lookup(op, p, bytes) {
            Some(l) => {
                if l.extrapolated {
                    warn(op, format!("collective table: {op} on {p} ranks with {bytes} bytes is outside the measured range; extrapolated log-log"));
                }
                let start = arrive.iter().cloned().fold(f64::MIN, f64::max);
                return Some(vec![start + l.seconds; arrive.len()]);
            }
            None => warn(op, format!("collective table has no `{op}` entries; using the point-to-point decomposition")),
        }
    }
    None
}

/// The step-by-step evaluation gives the same exit times, to the bit, as
/// running every rank's recorded schedule to a fixed point (the former
/// implementation, kept here as the reference).
#[cfg(test)]
mod streaming_eval_tests {
    use super::*;
    use crate::kernel::model::{Link, Segment};

    #[derive(Default, Clone, Copy)]
    struct Rec {
        ts: Option<f64>,
        post: Option<f64>,
    }

    /// Exit time of each comm rank for the decomposed algorithm, given arrival
    /// times (`world[i]`: world rank of comm rank i, for the link model).
    fn reference_times(plat: &Platform, shape: &Shape, arrive: &[f64], world: &[u32]) -> Vec<f64> {
        let p = arrive.len();
        if p <= 1 {
            return arrive.to_vec();
        }
        let b = build(shape, p);
        let mut t = arrive.to_vec();
        let mut cur = vec![0usize; p];
        let mut started = vec![false; p];
        let mut recs: HashMap<(usize, usize, u32), Rec> = HashMap::new();
        loop {
            let mut progress = false;
            let mut all_done = true;
            for r in 0..p {
                while cur[r] < b.ops[r].len() {
                    let op = &b.ops[r][cur[r]];
                    let t0 = t[r];
                    if !started[r] {
                        for (k, &(d, _, q)) in op.sends.iter().enumerate() {
                            recs.entry((r, d, q)).or_default().ts = Some(t0 + (k + 1) as f64 * plat.o_isend);
                        }
                        for &(s, _, q) in &op.recvs {
                            recs.entry((s, r, q)).or_default().post = Some(t0);
                        }
                        started[r] = true;
                        progress = true;
                    }
                    let mut done = t0;
                    let mut ok = true;
                    for &(d, bytes, q) in &op.sends {
                        let rec = recs[&(r, d, q)];
                        let ts = rec.ts.unwrap();
                        if bytes < plat.eager_threshold {
                            done = done.max(ts);
                        } else if let Some(post) = rec.post {
                            done = done.max(ts.max(post) + plat.transfer(world[r], world[d], bytes));
                        } else {
                            ok = false;
                        }
                    }
                    for &(s, bytes, q) in &op.recvs {
                        let rec = recs[&(s, r, q)];
                        match rec.ts {
                            Some(ts) => {
                                let start = if bytes < plat.async_threshold && bytes < plat.eager_threshold { ts } else { ts.max(t0) };
                                done = done.max((start + plat.transfer(world[s], world[r], bytes)).max(t0));
                            }
                            None => ok = false,
                        }
                    }
                    if !ok {
                        break;
                    }
                    if !op.recvs.is_empty() {
                        done += plat.o_recv;
                    }
                    t[r] = done;
                    cur[r] += 1;
                    started[r] = false;
                    progress = true;
                }
                if cur[r] < b.ops[r].len() {
                    all_done = false;
                }
            }
            if all_done {
                return t;
            }
            assert!(progress, "collective schedule stuck (bug in bsim::coll)");
        }
    }

    #[test]
    fn streaming_equals_fixed_point() {
        let kinds = [
            CollKind::Barrier,
            CollKind::Bcast,
            CollKind::Reduce,
            CollKind::Allreduce,
            CollKind::Gather,
            CollKind::Scatter,
            CollKind::Allgather,
            CollKind::Alltoall,
            CollKind::Alltoallv,
            CollKind::CommSplit,
        ];
        let mut seed = 0x1234_5678_u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for (l, bw, os, orc, eager, asy) in [(1e-6, 1e9, 0.0, 0.0, 65536, 65536), (3e-6, 2.5e9, 1.5e-7, 2e-7, 1000, 0), (7e-7, 1.1e10, 3e-8, 0.0, 64, 64)] {
            let pl = Platform {
                inter: Link { segments: vec![Segment { min_bytes: 0, latency: l, bandwidth: bw }] },
                o_isend: os,
                o_recv: orc,
                eager_threshold: eager,
                async_threshold: asy,
                ..Platform::default()
            };
            for p in [2usize, 3, 5, 6, 8, 13, 16] {
                for kind in kinds {
                    let w: Vec<u32> = (0..p as u32).rev().collect();
                    let arrive: Vec<f64> = (0..p).map(|_| (rnd() % 1000) as f64 * 1.3e-7).collect();
                    let matrix = (kind == CollKind::Alltoallv).then(|| (0..p).map(|_| (0..p).map(|_| rnd() % 3000).collect()).collect());
                    let shape = Shape { kind, root: (rnd() % p as u64) as usize, block: (0..p).map(|_| rnd() % 2000).collect(), matrix, split: vec![] };
                    let a = p2p_times(&pl, &shape, &arrive, &w);
                    let b = reference_times(&pl, &shape, &arrive, &w);
                    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&a), bits(&b), "{kind:?} p={p}");
                }
            }
        }
    }
}

#[cfg(test)]
mod schedule_for_tests {
    use super::*;

    /// One rank's part built alone equals its part of the whole schedule.
    #[test]
    fn own_part_equals_part_of_whole() {
        let kinds = [
            CollKind::Barrier,
            CollKind::Bcast,
            CollKind::Reduce,
            CollKind::Allreduce,
            CollKind::Gather,
            CollKind::Scatter,
            CollKind::Allgather,
            CollKind::Alltoall,
        ];
        for p in [2, 3, 5, 8, 13] {
            for kind in kinds {
                let shape = Shape { kind, root: p / 2, block: (0..p as u64).map(|i| 100 + i).collect(), matrix: None, split: vec![] };
                let all = schedule(&shape);
                for (me, part) in all.iter().enumerate() {
                    let own = schedule_for(&shape, me);
                    assert_eq!(format!("{own:?}"), format!("{part:?}"), "{kind:?} p={p} rank {me}");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::model::{Link, Segment};

    fn plat(l: f64, bw: f64) -> Platform {
        Platform { inter: Link { segments: vec![Segment { min_bytes: 0, latency: l, bandwidth: bw }] }, o_test: 0.0, ..Platform::default() }
    }

    fn shape(kind: CollKind, p: usize, bytes: u64) -> Shape {
        Shape { kind, root: 0, block: vec![bytes; p], matrix: None, split: vec![] }
    }

    #[test]
    fn bcast_binomial_depth() {
        let pl = plat(1e-6, 1e9);
        let w: Vec<u32> = (0..8).collect();
        let t = p2p_times(&pl, &shape(CollKind::Bcast, 8, 1000), &[0.0; 8], &w);
        let m = 1e-6 + 1000.0 / 1e9;
        // root sends to 4, 2, 1 (eager: no wait); rank 7 is 3 hops deep
        assert!((t[4] - m).abs() < 1e-15);
        assert!((t[7] - 3.0 * m).abs() < 1e-15, "{t:?}");
        assert_eq!(t[0], 0.0);
    }

    #[test]
    fn allreduce_rounds() {
        let pl = plat(1e-6, 1e9);
        for p in [2usize, 4, 8, 16] {
            let w: Vec<u32> = (0..p as u32).collect();
            let t = p2p_times(&pl, &shape(CollKind::Allreduce, p, 8), &vec![0.0; p], &w);
            let rounds = p.trailing_zeros() as f64;
            for x in &t {
                assert!((x - rounds * (1e-6 + 8e-9)).abs() < 1e-15);
            }
        }
        // 6 = 4 + 2: the pre step overlaps with round 1 of ranks 4 and 5; the
        // post step adds one message after round 2
        let w: Vec<u32> = (0..6).collect();
        let t = p2p_times(&pl, &shape(CollKind::Allreduce, 6, 8), &[0.0; 6], &w);
        let m = 1e-6 + 8e-9;
        assert!((t.iter().cloned().fold(0.0, f64::max) - 3.0 * m).abs() < 1e-15, "{t:?}");
    }

    #[test]
    fn late_arrival_delays_everyone() {
        let pl = plat(1e-6, 1e9);
        let w: Vec<u32> = (0..4).collect();
        let t = p2p_times(&pl, &shape(CollKind::Barrier, 4, 0), &[0.0, 0.0, 0.0, 1.0], &w);
        for x in &t {
            assert!(*x >= 1.0);
        }
    }
}
