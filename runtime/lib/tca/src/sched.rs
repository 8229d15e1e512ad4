//! Hybrid collective schedules (seed 002 §6.1.2), as pure data: for every rank,
//! the steps it takes, each transfer routed over TCA when both ends are in one
//! subcluster and over MPI (InfiniBand) otherwise.
//!
//! - **bcast**: binomial tree over the subclusters first (the cross-subcluster
//!   step over MPI comes first, fig. 6.2), then a binomial tree inside every
//!   subcluster from its head over TCA. With root 0 and power-of-two
//!   subclusters this is MPICH's binomial tree, step for step.
//! - **allgather**: recursive doubling (fig. 6.3) when the process count is a
//!   power of two: with contiguous power-of-two subclusters the early, small
//!   steps stay inside the subcluster (TCA) and the last, large ones cross it
//!   (MPI). Other counts: Bruck's algorithm (what MPICH uses there), each
//!   transfer routed the same way.
//! - **allreduce**: recursive doubling, as the thesis uses ("Allgather と同様に
//!   Recursive Doubling"), with MPICH's pre and post steps for a count that is
//!   not a power of two and MPICH's operand order (`tmp op buf`). Exchanges
//!   inside the subcluster are PIO stores, across it MPI Isend/Irecv; the
//!   result is bit for bit MPICH's recursive doubling for every operator.

/// Which network a transfer takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Via {
    /// Inside a subcluster: DMA chain or PIO stores into the peer's window.
    Tca,
    /// Across subclusters: MPI point to point.
    Mpi,
}

/// Where received bytes land in the receiver's buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dst {
    /// At this offset of the work buffer.
    Work(usize),
    /// In the reduce slot of the step (then combined into the work buffer).
    Slot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Send {
    pub peer: usize,
    pub via: Via,
    /// Offset in the sender's work buffer.
    pub src: usize,
    pub len: usize,
    pub dst: Dst,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recv {
    pub peer: usize,
    pub via: Via,
    pub len: usize,
    pub dst: Dst,
}

/// One step of one rank. `reduce`: after the receives, work = slot op work.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Step {
    pub index: usize,
    pub sends: Vec<Send>,
    pub recvs: Vec<Recv>,
    pub reduce: bool,
}

/// How the user's buffers map to the work buffer around the steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    /// Whole message in place (bcast: the root copies in; allreduce: everyone).
    Whole,
    /// Allgather, recursive doubling: own block at rank × block, result as is.
    Blocks,
    /// Allgather, Bruck: own block at 0, block j belongs to rank (me + j) mod p.
    Rotated,
}

/// One rank's part of a collective.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub frame: Frame,
    /// Bytes of the work buffer.
    pub work: usize,
    pub steps: Vec<Step>,
}

/// Subcluster of every rank: `XMPC_TCA_SUBCLUSTER=k` makes ranks r with the
/// same r / k one subcluster (further split by host at run time).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Groups {
    pub of: Vec<usize>,
}

impl Groups {
    pub fn blocks(p: usize, k: usize) -> Groups {
        Groups { of: (0..p).map(|r| r / k.max(1)).collect() }
    }
    pub fn size(&self) -> usize {
        self.of.len()
    }
    pub fn via(&self, a: usize, b: usize) -> Via {
        if self.of[a] == self.of[b] {
            Via::Tca
        } else {
            Via::Mpi
        }
    }
    /// Group ids in order of their first rank, and the members of each.
    fn members(&self) -> Vec<Vec<usize>> {
        let mut ids: Vec<usize> = vec![];
        let mut out: Vec<Vec<usize>> = vec![];
        for (r, &g) in self.of.iter().enumerate() {
            match ids.iter().position(|&x| x == g) {
                Some(i) => out[i].push(r),
                None => {
                    ids.push(g);
                    out.push(vec![r]);
                }
            }
        }
        out
    }
}

pub fn ceil_log2(n: usize) -> usize {
    if n <= 1 {
        0
    } else {
        (usize::BITS - (n - 1).leading_zeros()) as usize
    }
}

fn step_of(steps: &mut Vec<Step>, index: usize) -> &mut Step {
    match steps.iter().position(|s| s.index == index) {
        Some(i) => &mut steps[i],
        None => {
            steps.push(Step { index, ..Step::default() });
            steps.sort_by_key(|s| s.index);
            let i = steps.iter().position(|s| s.index == index).unwrap();
            &mut steps[i]
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn xfer(plans: &mut [Plan], g: &Groups, index: usize, from: usize, to: usize, src: usize, len: usize, dst: Dst) {
    let via = g.via(from, to);
    step_of(&mut plans[from].steps, index).sends.push(Send { peer: to, via, src, len, dst });
    step_of(&mut plans[to].steps, index).recvs.push(Recv { peer: from, via, len, dst });
}

/// MPICH's binomial tree over `n` nodes, root at relative index 0: calls
/// `f(level, parent, child)` for every edge (level 0 = the largest mask,
/// taken first).
fn binomial(n: usize, mut f: impl FnMut(usize, usize, usize)) {
    let levels = ceil_log2(n);
    for v in 1..n {
        let mask = 1usize << v.trailing_zeros();
        f(levels - 1 - mask.trailing_zeros() as usize, v - mask, v);
    }
}

/// Hybrid broadcast of `bytes` from `root`.
pub fn bcast(g: &Groups, root: usize, bytes: usize) -> Vec<Plan> {
    let p = g.size();
    let mut plans = vec![Plan { frame: Frame::Whole, work: bytes, steps: vec![] }; p];
    let groups = g.members();
    let m = groups.len();
    let gr = groups.iter().position(|v| v.contains(&root)).unwrap();
    let head = |gi: usize| if gi == gr { root } else { groups[gi][0] };
    let l1 = ceil_log2(m);
    binomial(m, |level, a, b| {
        let (ga, gb) = ((a + gr) % m, (b + gr) % m);
        xfer(&mut plans, g, level, head(ga), head(gb), 0, bytes, Dst::Work(0));
    });
    let kmax = groups.iter().map(Vec::len).max().unwrap_or(1);
    let l2 = ceil_log2(kmax);
    for (gi, mem) in groups.iter().enumerate() {
        let n = mem.len();
        let h = mem.iter().position(|&r| r == head(gi)).unwrap();
        binomial(n, |level, a, b| {
            let (ra, rb) = (mem[(a + h) % n], mem[(b + h) % n]);
            xfer(&mut plans, g, l1 + level + (l2 - ceil_log2(n)), ra, rb, 0, bytes, Dst::Work(0));
        });
    }
    plans
}

/// Hybrid allgather of `block` bytes per rank.
pub fn allgather(g: &Groups, block: usize) -> Vec<Plan> {
    let p = g.size();
    let work = p * block;
    if p.is_power_of_two() {
        let mut plans = vec![Plan { frame: Frame::Blocks, work, steps: vec![] }; p];
        let mut mask = 1;
        let mut index = 0;
        while mask < p {
            for r in 0..p {
                let partner = r ^ mask;
                let start = (r & !(mask - 1)) * block;
                xfer(&mut plans, g, index, r, partner, start, mask * block, Dst::Work(start));
            }
            mask <<= 1;
            index += 1;
        }
        plans
    } else {
        let mut plans = vec![Plan { frame: Frame::Rotated, work, steps: vec![] }; p];
        let mut d = 1;
        let mut index = 0;
        while d < p {
            let cnt = d.min(p - d);
            for r in 0..p {
                xfer(&mut plans, g, index, r, (r + p - d) % p, 0, cnt * block, Dst::Work(d * block));
            }
            d <<= 1;
            index += 1;
        }
        plans
    }
}

/// Hybrid allreduce of `bytes` (MPICH's recursive doubling, see the module).
pub fn allreduce(g: &Groups, bytes: usize) -> Vec<Plan> {
    let p = g.size();
    let mut plans = vec![Plan { frame: Frame::Whole, work: bytes, steps: vec![] }; p];
    let pof2 = if p == 0 { 0 } else { 1usize << (usize::BITS - 1 - p.leading_zeros()) };
    let rem = p - pof2;
    let last = 1 + pof2.trailing_zeros() as usize;
    for r in 0..2 * rem {
        if r % 2 == 0 {
            xfer(&mut plans, g, 0, r, r + 1, 0, bytes, Dst::Slot);
        } else {
            step_of(&mut plans[r].steps, 0).reduce = true;
        }
    }
    let real = |nr: usize| if nr < rem { nr * 2 + 1 } else { nr + rem };
    let mut mask = 1;
    let mut index = 1;
    while mask < pof2 {
        for nr in 0..pof2 {
            let (r, dst) = (real(nr), real(nr ^ mask));
            xfer(&mut plans, g, index, r, dst, 0, bytes, Dst::Slot);
            step_of(&mut plans[r].steps, index).reduce = true;
        }
        mask <<= 1;
        index += 1;
    }
    for r in 0..2 * rem {
        if r % 2 == 1 {
            xfer(&mut plans, g, last, r, r - 1, 0, bytes, Dst::Work(0));
        }
    }
    plans
}

/// Every send has exactly one receive at its peer in the same step with the
/// same length, destination and network, and the network is TCA exactly
/// inside a subcluster. Returns a description of the first mismatch.
pub fn check(g: &Groups, plans: &[Plan]) -> Result<(), String> {
    for (r, pl) in plans.iter().enumerate() {
        for st in &pl.steps {
            for s in &st.sends {
                if s.via != g.via(r, s.peer) {
                    return Err(format!("rank {r} step {}: send to {} over {:?}", st.index, s.peer, s.via));
                }
                let n = plans[s.peer]
                    .steps
                    .iter()
                    .filter(|q| q.index == st.index)
                    .flat_map(|q| &q.recvs)
                    .filter(|x| x.peer == r && x.len == s.len && x.dst == s.dst && x.via == s.via)
                    .count();
                if n != 1 {
                    return Err(format!("rank {r} step {}: send to {} has {n} matching receives", st.index, s.peer));
                }
                if s.src + s.len > pl.work {
                    return Err(format!("rank {r} step {}: send reads past the work buffer", st.index));
                }
            }
            for x in &st.recvs {
                if let Dst::Work(o) = x.dst {
                    if o + x.len > plans[r].work {
                        return Err(format!("rank {r} step {}: receive writes past the work buffer", st.index));
                    }
                }
            }
            if st.recvs.iter().filter(|x| x.dst == Dst::Slot).count() > 1 {
                return Err(format!("rank {r} step {}: two receives into one slot", st.index));
            }
        }
    }
    Ok(())
}

/// Runs plans in memory, all ranks step by step (tests; the BSIM replay and
/// the MPI executor run the same plans). `input[r]` is rank r's contribution
/// (the whole message for bcast/allreduce, its block for allgather); `op(tmp,
/// work)` computes work = tmp op work. Returns every rank's result.
pub fn simulate(plans: &[Plan], input: &[Vec<u8>], root: Option<usize>, op: &dyn Fn(&[u8], &mut [u8])) -> Vec<Vec<u8>> {
    let p = plans.len();
    let mut work: Vec<Vec<u8>> = plans.iter().map(|pl| vec![0; pl.work]).collect();
    let mut slot: Vec<Vec<u8>> = plans.iter().map(|pl| vec![0; pl.work]).collect();
    for r in 0..p {
        match plans[r].frame {
            Frame::Whole => {
                if root.is_none() || root == Some(r) {
                    work[r].copy_from_slice(&input[r]);
                }
            }
            Frame::Blocks => {
                let b = input[r].len();
                work[r][r * b..(r + 1) * b].copy_from_slice(&input[r]);
            }
            Frame::Rotated => {
                let b = input[r].len();
                work[r][..b].copy_from_slice(&input[r]);
            }
        }
    }
    let max = plans.iter().flat_map(|pl| pl.steps.iter().map(|s| s.index)).max().map_or(0, |m| m + 1);
    for index in 0..max {
        let mut msgs = vec![];
        for r in 0..p {
            for st in plans[r].steps.iter().filter(|s| s.index == index) {
                for s in &st.sends {
                    msgs.push((s.peer, s.dst, work[r][s.src..s.src + s.len].to_vec()));
                }
            }
        }
        for (to, dst, data) in msgs {
            match dst {
                Dst::Work(o) => work[to][o..o + data.len()].copy_from_slice(&data),
                Dst::Slot => slot[to][..data.len()].copy_from_slice(&data),
            }
        }
        for r in 0..p {
            if plans[r].steps.iter().any(|s| s.index == index && s.reduce) {
                let t = slot[r].clone();
                op(&t, &mut work[r]);
            }
        }
    }
    (0..p)
        .map(|r| match plans[r].frame {
            Frame::Rotated => {
                let b = plans[r].work / p;
                let mut out = vec![0; plans[r].work];
                for j in 0..p {
                    let o = (r + j) % p;
                    out[o * b..(o + 1) * b].copy_from_slice(&work[r][j * b..(j + 1) * b]);
                }
                out
            }
            _ => work[r].clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn configs() -> Vec<Groups> {
        let mut v = vec![];
        for p in 1..=17 {
            for k in 1..=p {
                v.push(Groups::blocks(p, k));
            }
        }
        // a subcluster split by host: not contiguous
        v.push(Groups { of: vec![0, 1, 0, 1, 0, 1] });
        v
    }

    fn f64_sum(t: &[u8], w: &mut [u8]) {
        for (a, b) in t.chunks(8).zip(w.chunks_mut(8)) {
            let x = f64::from_le_bytes(a.try_into().unwrap()) + f64::from_le_bytes((&*b).try_into().unwrap());
            b.copy_from_slice(&x.to_le_bytes());
        }
    }

    /// MPICH's recursive doubling allreduce, written from its source's
    /// structure, on f64 sums: the bits the hybrid must reproduce.
    fn mpich_rd(vals: &[f64]) -> Vec<f64> {
        let p = vals.len();
        let mut buf = vals.to_vec();
        let pof2 = 1usize << (usize::BITS - 1 - p.leading_zeros());
        let rem = p - pof2;
        let mut newrank = vec![None; p];
        for r in 0..p {
            if r < 2 * rem {
                if r % 2 == 1 {
                    buf[r] += buf[r - 1];
                    newrank[r] = Some(r / 2);
                }
            } else {
                newrank[r] = Some(r - rem);
            }
        }
        let mut mask = 1;
        while mask < pof2 {
            let old = buf.clone();
            for r in 0..p {
                if let Some(nr) = newrank[r] {
                    let nd = nr ^ mask;
                    let d = if nd < rem { nd * 2 + 1 } else { nd + rem };
                    buf[r] = old[d] + old[r];
                }
            }
            mask <<= 1;
        }
        for r in 0..2 * rem {
            if r % 2 == 0 {
                buf[r] = buf[r + 1];
            }
        }
        buf
    }

    #[test]
    fn every_config_matches_and_routes_by_subcluster() {
        for g in configs() {
            let p = g.size();
            for pl in [bcast(&g, 0, 24), bcast(&g, p - 1, 24), bcast(&g, p / 2, 24), allgather(&g, 8), allreduce(&g, 16)] {
                check(&g, &pl).unwrap_or_else(|e| panic!("p {p} groups {:?}: {e}", g.of));
            }
        }
    }

    #[test]
    fn results_are_right_and_allreduce_is_mpichs_bits() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for g in configs() {
            let p = g.size();
            for root in [0, p - 1, p / 2] {
                let data: Vec<Vec<u8>> = (0..p).map(|r| (0..24).map(|i| (r * 31 + i) as u8).collect()).collect();
                let out = simulate(&bcast(&g, root, 24), &data, Some(root), &|_, _| {});
                assert!(out.iter().all(|o| *o == data[root]), "bcast p {p} root {root} {:?}", g.of);
            }
            let blocks: Vec<Vec<u8>> = (0..p).map(|r| (0..8).map(|i| (r * 8 + i) as u8).collect()).collect();
            let want: Vec<u8> = blocks.concat();
            let out = simulate(&allgather(&g, 8), &blocks, None, &|_, _| {});
            assert!(out.iter().all(|o| *o == want), "allgather p {p} {:?}", g.of);
            let vals: Vec<f64> = (0..p).map(|_| (rnd() >> 11) as f64 * 1e-7 - 3e8).collect();
            let input: Vec<Vec<u8>> = vals.iter().map(|v| [v.to_le_bytes(), (-v / 3.0).to_le_bytes()].concat()).collect();
            let out = simulate(&allreduce(&g, 16), &input, None, &f64_sum);
            let want0 = mpich_rd(&vals);
            let want1 = mpich_rd(&vals.iter().map(|v| -v / 3.0).collect::<Vec<_>>());
            for r in 0..p {
                assert_eq!(&out[r][..8], &want0[r].to_le_bytes(), "p {p} rank {r}");
                assert_eq!(&out[r][8..], &want1[r].to_le_bytes(), "p {p} rank {r}");
            }
        }
    }

    fn vias(pl: &Plan) -> Vec<Via> {
        pl.steps.iter().filter_map(|s| s.sends.first().map(|x| x.via).or(s.recvs.first().map(|x| x.via))).collect()
    }

    /// The thesis' orders, with 2 subclusters of p/2 (fig. 6.2, 6.3): bcast
    /// crosses first, allgather and allreduce cross last.
    #[test]
    fn cross_step_first_for_bcast_last_for_the_others() {
        for p in [4, 8, 16] {
            let g = Groups::blocks(p, p / 2);
            let b = bcast(&g, 0, 8);
            assert_eq!(b[0].steps[0].sends[0], Send { peer: p / 2, via: Via::Mpi, src: 0, len: 8, dst: Dst::Work(0) });
            assert!(b.iter().flat_map(|pl| &pl.steps).filter(|s| s.index > 0).flat_map(|s| &s.sends).all(|s| s.via == Via::Tca));
            for pl in allgather(&g, 8).iter().chain(&allreduce(&g, 8)) {
                let v = vias(pl);
                assert_eq!(v.last(), Some(&Via::Mpi));
                assert!(v[..v.len() - 1].iter().all(|&x| x == Via::Tca), "{v:?}");
            }
            // allgather: the MPI step carries half the data
            let ag = allgather(&g, 8);
            assert_eq!(ag[0].steps.last().unwrap().sends[0].len, p / 2 * 8);
        }
    }
}
