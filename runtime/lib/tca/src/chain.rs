//! TCA descriptor chains (seed 002 §5.2.5: `tcaSetDMADesc_Memcpy`,
//! `tcaDescSetMemcpy2D`, `tcaStartDMADesc`, `tcaWaitDMADesc`) and the parity
//! ordering of halo chains (§6.1.3, listing 6.1).
//!
//! TCA is put-only: a descriptor names the *receiver's* memory by its handle
//! (rank and offset of a registered region); the receiver does nothing but wait
//! on its notify counter, which the chain raises after its last write.

/// PEACH2's on-chip descriptor memory holds at most this many descriptors.
pub const MAX_DESC: usize = 1024;

/// A registered region of one rank (a `tcaHandle`): where peers may write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(C)]
pub struct Handle {
    pub rank: u32,
    pub off: u64,
    pub len: u64,
}

/// One DMA descriptor. Sources are offsets in the writer's local source buffer,
/// destinations offsets in the receiver's registered region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Desc {
    Memcpy {
        dst: usize,
        dst_off: usize,
        src_off: usize,
        len: usize,
    },
    /// `height` rows of `width` bytes; rows `src_pitch` / `dst_pitch` apart.
    Memcpy2D {
        dst: usize,
        dst_off: usize,
        dst_pitch: usize,
        src_off: usize,
        src_pitch: usize,
        width: usize,
        height: usize,
    },
}

impl Desc {
    pub fn dst(&self) -> usize {
        match *self {
            Desc::Memcpy { dst, .. } | Desc::Memcpy2D { dst, .. } => dst,
        }
    }
    pub fn bytes(&self) -> usize {
        match *self {
            Desc::Memcpy { len, .. } => len,
            Desc::Memcpy2D { width, height, .. } => width * height,
        }
    }
    /// Highest byte (exclusive) written in the destination, read in the source.
    pub fn extents(&self) -> (usize, usize) {
        match *self {
            Desc::Memcpy { dst_off, src_off, len, .. } => (dst_off + len, src_off + len),
            Desc::Memcpy2D { dst_off, dst_pitch, src_off, src_pitch, width, height, .. } => {
                if height == 0 {
                    (dst_off, src_off)
                } else {
                    (dst_off + (height - 1) * dst_pitch + width, src_off + (height - 1) * src_pitch + width)
                }
            }
        }
    }
}

/// A chain of descriptors, started at once; each receiver named in it gets one
/// notify after the chain's last write to it (`notify` lists them in order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chain {
    descs: Vec<Desc>,
}

#[derive(Debug, PartialEq, Eq)]
pub struct ChainFull;

impl Chain {
    pub fn new() -> Chain {
        Chain::default()
    }
    /// `tcaSetDMADesc_Memcpy`.
    pub fn memcpy(&mut self, dst: usize, dst_off: usize, src_off: usize, len: usize) -> Result<(), ChainFull> {
        self.push(Desc::Memcpy { dst, dst_off, src_off, len })
    }
    /// `tcaDescSetMemcpy2D`.
    #[allow(clippy::too_many_arguments)]
    pub fn memcpy2d(
        &mut self,
        dst: usize,
        dst_off: usize,
        dst_pitch: usize,
        src_off: usize,
        src_pitch: usize,
        width: usize,
        height: usize,
    ) -> Result<(), ChainFull> {
        self.push(Desc::Memcpy2D { dst, dst_off, dst_pitch, src_off, src_pitch, width, height })
    }
    fn push(&mut self, d: Desc) -> Result<(), ChainFull> {
        if self.descs.len() >= MAX_DESC {
            return Err(ChainFull);
        }
        self.descs.push(d);
        Ok(())
    }
    pub fn descs(&self) -> &[Desc] {
        &self.descs
    }
    pub fn is_empty(&self) -> bool {
        self.descs.is_empty()
    }
    /// Receivers in the order of their last descriptor (each notified once).
    pub fn receivers(&self) -> Vec<usize> {
        let mut out: Vec<usize> = vec![];
        for d in &self.descs {
            out.retain(|&r| r != d.dst());
            out.push(d.dst());
        }
        out
    }
}

/// One dimension of the node grid as a halo exchange sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridDim {
    /// This node's index in the dimension.
    pub index: usize,
    pub lo: Option<usize>,
    pub hi: Option<usize>,
}

/// The halo chain's slots, in order: for each dimension, lower neighbour first
/// when the node's index in that dimension is even, upper first when odd
/// (listing 6.1, `dim_index % 2`). `None` slots (no neighbour) stay in place:
/// the engine idles for one slot, so the slots of all nodes stay aligned.
pub fn parity_order(dims: &[GridDim]) -> Vec<Option<usize>> {
    dims.iter().flat_map(|d| if d.index % 2 == 0 { [d.lo, d.hi] } else { [d.hi, d.lo] }).collect()
}

/// Neighbours in ascending rank order (a chain built from a sorted neighbour list).
pub fn rank_order(dims: &[GridDim]) -> Vec<Option<usize>> {
    let mut v: Vec<usize> = dims.iter().flat_map(|d| [d.lo, d.hi]).flatten().collect();
    v.sort_unstable();
    v.into_iter().map(Some).collect()
}

/// Drops the empty slots (Omni skips the descriptor of a missing neighbour).
pub fn compact(slots: Vec<Option<usize>>) -> Vec<Option<usize>> {
    slots.into_iter().filter(|s| s.is_some()).collect()
}

/// A collision: at `step`, `receiver` gets writes from all of `writers`.
#[derive(Debug, PartialEq, Eq)]
pub struct Collision {
    pub step: usize,
    pub receiver: usize,
    pub writers: Vec<usize>,
}

/// Steps every node's engine in lock-step (engine `n` executes `chains[n][t]`
/// at step `t`) and returns every step where one receiver gets two writes.
pub fn lockstep(chains: &[Vec<Option<usize>>]) -> Vec<Collision> {
    let steps = chains.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = vec![];
    for t in 0..steps {
        let mut by: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
        for (n, c) in chains.iter().enumerate() {
            if let Some(Some(r)) = c.get(t) {
                by.entry(*r).or_default().push(n);
            }
        }
        for (receiver, writers) in by {
            if writers.len() > 1 {
                out.push(Collision { step: t, receiver, writers });
            }
        }
    }
    out
}

/// The node grid of an XMP `nodes p(n0, n1, ...)`: rank = row-major index
/// (first dimension fastest, as XMP numbers nodes); per-dimension periodicity.
pub fn grid(shape: &[usize], periodic: &[bool]) -> Vec<Vec<GridDim>> {
    let total: usize = shape.iter().product();
    (0..total)
        .map(|rank| {
            let mut r = rank;
            let mut coord = vec![];
            for &n in shape {
                coord.push(r % n);
                r /= n;
            }
            let lin = |c: &[usize]| c.iter().zip(shape).rev().fold(0, |a, (&i, &n)| a * n + i);
            (0..shape.len())
                .map(|d| {
                    let n = shape[d];
                    let at = |i: usize| {
                        let mut c = coord.clone();
                        c[d] = i;
                        lin(&c)
                    };
                    let lo = if coord[d] > 0 {
                        Some(at(coord[d] - 1))
                    } else if periodic[d] && n > 1 {
                        Some(at(n - 1))
                    } else {
                        None
                    };
                    let hi = if coord[d] + 1 < n {
                        Some(at(coord[d] + 1))
                    } else if periodic[d] && n > 1 {
                        Some(at(0))
                    } else {
                        None
                    };
                    GridDim { index: coord[d], lo, hi }
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes() -> Vec<Vec<usize>> {
        let mut all = vec![];
        for nd in 1..=4usize {
            let mut v: Vec<Vec<usize>> = vec![vec![]];
            for _ in 0..nd {
                v = v.into_iter().flat_map(|p| [1, 2, 3, 4, 6].map(|e| [p.clone(), vec![e]].concat())).collect();
            }
            all.extend(v.into_iter().filter(|s| s.iter().product::<usize>() <= 64));
        }
        all
    }

    fn periodics(nd: usize) -> Vec<Vec<bool>> {
        (0..1usize << nd).map(|m| (0..nd).map(|d| m >> d & 1 == 1).collect()).collect()
    }

    /// Parity ordering, slots kept aligned: no receiver ever gets two writes in
    /// one step, on every 1-4-D grid whose periodic dimensions have an even
    /// number of nodes (or at most 2). The ordering without parity (ascending
    /// neighbour rank) collides on a large share of those grids.
    #[test]
    fn parity_never_collides_and_rank_order_does() {
        let (mut grids, mut rank_collides) = (0, 0);
        for s in shapes() {
            for p in periodics(s.len()) {
                if s.iter().zip(&p).any(|(&n, &per)| per && n % 2 == 1 && n > 2) {
                    continue;
                }
                let g = grid(&s, &p);
                let par: Vec<_> = g.iter().map(|d| parity_order(d)).collect();
                assert_eq!(lockstep(&par), vec![], "parity collides on {s:?} periodic {p:?}");
                grids += 1;
                if !lockstep(&g.iter().map(|d| rank_order(d)).collect::<Vec<_>>()).is_empty() {
                    rank_collides += 1;
                }
            }
        }
        assert!(grids > 500, "{grids}");
        assert!(rank_collides * 4 > grids, "rank order collides on {rank_collides} of {grids} grids");
    }

    /// The smallest cases, by hand: 4 nodes in a periodic ring. Parity pairs
    /// (0,3) and (1,2) in step 0; ascending rank order sends 0→1 and 2→1.
    #[test]
    fn ring_of_four_by_hand() {
        let g = grid(&[4], &[true]);
        let par: Vec<_> = g.iter().map(|d| parity_order(d)).collect();
        assert_eq!(par[0], vec![Some(3), Some(1)]);
        assert_eq!(par[1], vec![Some(2), Some(0)]);
        assert_eq!(lockstep(&par), vec![]);
        let naive: Vec<_> = g.iter().map(|d| rank_order(d)).collect();
        let c = lockstep(&naive);
        assert!(c.contains(&Collision { step: 0, receiver: 1, writers: vec![0, 2] }), "{c:?}");
    }

    /// What the slots buy: Omni drops the descriptor of a missing neighbour, so
    /// at a non-periodic edge the chains shift and parity no longer pairs them
    /// (3 nodes in a line: 0→1 and 2→1 in step 0). An odd periodic ring cannot
    /// be paired either (the wrap joins two even nodes).
    #[test]
    fn compaction_and_odd_rings_break_parity() {
        let g = grid(&[3], &[false]);
        let compacted: Vec<_> = g.iter().map(|d| compact(parity_order(d))).collect();
        assert_eq!(lockstep(&compacted), vec![Collision { step: 0, receiver: 1, writers: vec![0, 2] }]);
        let aligned: Vec<_> = g.iter().map(|d| parity_order(d)).collect();
        assert_eq!(lockstep(&aligned), vec![]);
        let odd = grid(&[5], &[true]);
        assert!(!lockstep(&odd.iter().map(|d| parity_order(d)).collect::<Vec<_>>()).is_empty());
    }

    #[test]
    fn chain_limit_and_receivers() {
        let mut c = Chain::new();
        for i in 0..MAX_DESC {
            c.memcpy(i % 3, 0, 0, 8).unwrap();
        }
        assert_eq!(c.memcpy(0, 0, 0, 8), Err(ChainFull));
        assert_eq!(c.receivers(), vec![1, 2, 0]);
        let d = Desc::Memcpy2D { dst: 1, dst_off: 16, dst_pitch: 100, src_off: 8, src_pitch: 40, width: 24, height: 3 };
        assert_eq!(d.bytes(), 72);
        assert_eq!(d.extents(), (16 + 200 + 24, 8 + 80 + 24));
    }
}
