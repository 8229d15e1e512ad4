//! Built-in communication patterns, written as rank programs (no C needed).

use crate::engine::{Block, Cx, Program};
use crate::{SplitMix, Time};
use std::sync::Arc;

/// A built-in pattern.
#[derive(Clone, Debug, PartialEq)]
pub enum Pattern {
    /// HPCC random ring: every rank exchanges `bytes` with both neighbours of
    /// a random permutation ring, `loops` times.
    RandomRing { bytes: u64, loops: u32, seed: u64 },
    /// all-to-all, pairwise exchange: step i sends to r+i, receives from r-i.
    AlltoallPairwise { bytes: u64 },
    /// the first `steps` steps of the pairwise all-to-all (to measure a fraction of a huge run).
    AlltoallPairwiseSteps { bytes: u64, steps: u32 },
    /// all-to-all, Bruck: ceil(log2 p) rounds of aggregated blocks.
    AlltoallBruck { bytes: u64 },
    /// binomial-tree broadcast from rank 0.
    BcastBinomial { bytes: u64 },
    /// recursive-doubling allreduce (MPICH scheme for non powers of two).
    AllreduceRd { bytes: u64 },
    /// 3-D halo exchange on a periodic process grid, `iters` iterations with
    /// `compute` ps of computation before each.
    Halo3d { bytes: u64, iters: u32, compute: Time },
    /// one message from `src` to `dst`.
    Message { src: u32, dst: u32, bytes: u64 },
    /// every rank except `dst` sends `bytes` to `dst` (hot spot).
    HotSpot { dst: u32, bytes: u64 },
    /// every rank r sends `bytes` to (r + shift) mod p.
    Shift { shift: u32, bytes: u64 },
}

/// The largest message a pattern may send (1 TiB).
pub const MAX_BYTES: u64 = 1 << 40;

impl Pattern {
    /// Checks the ranks a pattern names against the number of ranks.
    pub fn check(&self, nranks: u32) -> Result<(), String> {
        let within = |k: &str, r: u32| if r < nranks { Ok(()) } else { Err(format!("`{k}={r}` is not a rank (0..{nranks})")) };
        match *self {
            Pattern::Message { src, dst, .. } => within("src", src).and(within("dst", dst)),
            Pattern::HotSpot { dst, .. } => within("dst", dst),
            _ => Ok(()),
        }
    }

    /// Parse `name:key=value,...`, e.g. `ring:bytes=1048576,loops=5`.
    pub fn parse(s: &str) -> Result<Pattern, String> {
        let (name, args) = s.split_once(':').unwrap_or((s, ""));
        let mut kv = std::collections::HashMap::new();
        for a in args.split(',').filter(|a| !a.is_empty()) {
            let (k, v) = a.split_once('=').ok_or_else(|| format!("bad pattern argument `{a}` (key=value)"))?;
            kv.insert(k.trim().to_string(), v.trim().to_string());
        }
        // Every size is bounded here, before anything is allocated for it: message
        // sizes by MAX_BYTES (so packet counts fit), counts and ranks by u32.
        let num = |k: &str, d: u64| -> Result<u64, String> {
            let v = match kv.get(k) {
                None => return Ok(d),
                Some(v) => parse_size(v).ok_or_else(|| format!("bad value `{v}` for `{k}` (a size such as 1024, 64K, 1M)"))?,
            };
            let max = if k == "bytes" {
                MAX_BYTES
            } else if k == "seed" {
                u64::MAX
            } else {
                u32::MAX as u64
            };
            if v > max {
                return Err(format!("`{k}={v}` is too large (at most {max})"));
            }
            Ok(v)
        };
        // An argument the pattern does not take is an error, never ignored
        // (`halo3d:loops=9` would run the default 10 iterations without a word).
        let known: &[&str] = match name {
            "ring" => &["bytes", "loops", "seed"],
            "alltoall" | "pairwise" => &["bytes", "steps"],
            "bruck" | "bcast" | "allreduce" => &["bytes"],
            "halo3d" => &["bytes", "iters", "compute"],
            "message" => &["src", "dst", "bytes"],
            "hotspot" => &["dst", "bytes"],
            "shift" => &["shift", "bytes"],
            _ => &[],
        };
        let mut given: Vec<&String> = kv.keys().collect();
        given.sort();
        if let Some(k) = given.into_iter().find(|k| !known.is_empty() && !known.contains(&k.as_str())) {
            return Err(format!("`{name}` takes no argument `{k}` (it takes {})", known.join(", ")));
        }
        let p = match name {
            "ring" => Pattern::RandomRing { bytes: num("bytes", 1 << 20)?, loops: num("loops", 5)? as u32, seed: num("seed", 1)? },
            "alltoall" | "pairwise" => match kv.get("steps") {
                None => Pattern::AlltoallPairwise { bytes: num("bytes", 4)? },
                Some(_) => Pattern::AlltoallPairwiseSteps { bytes: num("bytes", 4)?, steps: num("steps", 1)? as u32 },
            },
            "bruck" => Pattern::AlltoallBruck { bytes: num("bytes", 8)? },
            "bcast" => Pattern::BcastBinomial { bytes: num("bytes", 8)? },
            "allreduce" => Pattern::AllreduceRd { bytes: num("bytes", 8)? },
            "halo3d" => Pattern::Halo3d {
                bytes: num("bytes", 65536)?,
                iters: num("iters", 10)? as u32,
                compute: match kv.get("compute") {
                    Some(v) => crate::config::parse_time(v)?,
                    None => 0,
                },
            },
            "message" => Pattern::Message { src: num("src", 0)? as u32, dst: num("dst", 1)? as u32, bytes: num("bytes", 8)? },
            "hotspot" => Pattern::HotSpot { dst: num("dst", 0)? as u32, bytes: num("bytes", 65536)? },
            "shift" => Pattern::Shift { shift: num("shift", 1)? as u32, bytes: num("bytes", 65536)? },
            _ => return Err(format!("unknown pattern `{name}` (ring, alltoall, bruck, bcast, allreduce, halo3d, message, hotspot, shift)")),
        };
        Ok(p)
    }

    /// Programs for all ranks.
    pub fn programs(&self, p: u32) -> impl FnMut(u32) -> Box<dyn Program> + '_ {
        let ring: Option<Arc<Vec<u32>>> = match self {
            Pattern::RandomRing { seed, .. } => Some(Arc::new(random_perm(p, *seed))),
            _ => None,
        };
        let pos: Option<Arc<Vec<u32>>> = ring.as_ref().map(|perm| {
            let mut pos = vec![0; p as usize];
            for (i, &r) in perm.iter().enumerate() {
                pos[r as usize] = i as u32;
            }
            Arc::new(pos)
        });
        move |r| -> Box<dyn Program> {
            match self {
                Pattern::RandomRing { bytes, loops, .. } => {
                    let perm = ring.as_ref().unwrap();
                    let i = pos.as_ref().unwrap()[r as usize];
                    let left = perm[((i + p - 1) % p) as usize];
                    let right = perm[((i + 1) % p) as usize];
                    Box::new(Ring { left, right, bytes: *bytes, loops: *loops, i: 0 })
                }
                Pattern::AlltoallPairwise { bytes } => Box::new(Pairwise { bytes: *bytes, i: 1, last: p }),
                Pattern::AlltoallPairwiseSteps { bytes, steps } => Box::new(Pairwise { bytes: *bytes, i: 1, last: (*steps + 1).min(p) }),
                Pattern::AlltoallBruck { bytes } => Box::new(Bruck { bytes: *bytes, k: 0 }),
                Pattern::BcastBinomial { bytes } => Box::new(Bcast { bytes: *bytes, phase: 0 }),
                Pattern::AllreduceRd { bytes } => Box::new(Allreduce::new(r, p, *bytes)),
                Pattern::Halo3d { bytes, iters, compute } => Box::new(Halo::new(r, p, *bytes, *iters, *compute)),
                Pattern::Message { src, dst, bytes } => {
                    let mut s = Script::default();
                    if r == *src {
                        s.steps.push(Step { sends: vec![(*dst, *bytes)], ..Default::default() });
                    }
                    if r == *dst {
                        s.steps.push(Step { recvs: vec![*src], ..Default::default() });
                    }
                    Box::new(s)
                }
                Pattern::HotSpot { dst, bytes } => {
                    let mut s = Script::default();
                    if r == *dst {
                        s.steps.push(Step { recvs: (0..p).filter(|&x| x != *dst).collect(), ..Default::default() });
                    } else {
                        s.steps.push(Step { sends: vec![(*dst, *bytes)], ..Default::default() });
                    }
                    Box::new(s)
                }
                Pattern::Shift { shift, bytes } => {
                    let to = (r + shift) % p;
                    let from = (r + p - shift % p) % p;
                    Box::new(Script { steps: vec![Step { sends: vec![(to, *bytes)], recvs: vec![from], sleep: 0 }], i: 0 })
                }
            }
        }
    }
}

/// `123`, `4K`, `1M`, `2KiB`, `1MiB` (K/M/G are binary).
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (n, m) = if let Some(x) = s.strip_suffix("KiB").or_else(|| s.strip_suffix('K')).or_else(|| s.strip_suffix('k')) {
        (x, 1u64 << 10)
    } else if let Some(x) = s.strip_suffix("MiB").or_else(|| s.strip_suffix('M')) {
        (x, 1 << 20)
    } else if let Some(x) = s.strip_suffix("GiB").or_else(|| s.strip_suffix('G')) {
        (x, 1 << 30)
    } else {
        (s, 1)
    };
    n.trim().parse::<u64>().ok().and_then(|v| v.checked_mul(m))
}

/// Fisher–Yates permutation of 0..p with SplitMix64.
pub fn random_perm(p: u32, seed: u64) -> Vec<u32> {
    let mut v: Vec<u32> = (0..p).collect();
    let mut rng = SplitMix(seed);
    for i in (1..v.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
    v
}

struct Ring {
    left: u32,
    right: u32,
    bytes: u64,
    loops: u32,
    i: u32,
}
impl Program for Ring {
    fn step(&mut self, cx: &mut Cx) -> Block {
        if self.i == self.loops || cx.size() < 2 {
            return Block::Done;
        }
        self.i += 1;
        cx.irecv(Some(self.left), Some(0), self.bytes);
        cx.irecv(Some(self.right), Some(1), self.bytes);
        cx.isend(self.right, 0, self.bytes);
        cx.isend(self.left, 1, self.bytes);
        Block::Wait
    }
}

struct Pairwise {
    bytes: u64,
    i: u32,
    /// stop before step `last` (p for the whole all-to-all)
    last: u32,
}
impl Program for Pairwise {
    fn step(&mut self, cx: &mut Cx) -> Block {
        let p = cx.size();
        if self.i >= self.last {
            return Block::Done;
        }
        let r = cx.rank();
        let dst = (r + self.i) % p;
        let src = (r + p - self.i) % p;
        self.i += 1;
        cx.irecv(Some(src), Some(0), self.bytes);
        cx.isend(dst, 0, self.bytes);
        Block::Wait
    }
}

struct Bruck {
    bytes: u64,
    k: u32,
}
impl Program for Bruck {
    fn step(&mut self, cx: &mut Cx) -> Block {
        let p = cx.size();
        let d = 1u64 << self.k;
        if d >= p as u64 {
            return Block::Done;
        }
        let r = cx.rank();
        let d = d as u32;
        let dst = (r + d) % p;
        let src = (r + p - d) % p;
        let blocks = (0..p).filter(|j| j & d != 0).count() as u64;
        self.k += 1;
        cx.irecv(Some(src), Some(0), blocks * self.bytes);
        cx.isend(dst, 0, blocks * self.bytes);
        Block::Wait
    }
}

struct Bcast {
    bytes: u64,
    phase: u32,
}
impl Program for Bcast {
    fn step(&mut self, cx: &mut Cx) -> Block {
        let p = cx.size();
        let r = cx.rank();
        let mut mask = 1;
        while mask < p && r & mask == 0 {
            mask <<= 1;
        }
        match self.phase {
            0 => {
                self.phase = 1;
                if r != 0 {
                    cx.irecv(Some(r - mask), Some(0), self.bytes);
                    return Block::Wait;
                }
                self.step(cx)
            }
            1 => {
                self.phase = 2;
                let mut m = mask >> 1;
                while m > 0 {
                    if r + m < p {
                        cx.isend(r + m, 0, self.bytes);
                    }
                    m >>= 1;
                }
                Block::Wait
            }
            _ => Block::Done,
        }
    }
}

struct Allreduce {
    bytes: u64,
    r: u32,
    p2: u32,
    rem: u32,
    newrank: Option<u32>,
    mask: u32,
    phase: u32,
}
impl Allreduce {
    fn new(r: u32, p: u32, bytes: u64) -> Allreduce {
        let p2 = if p == 0 { 0 } else { 1 << (31 - p.leading_zeros()) };
        let rem = p - p2;
        let newrank = if r < 2 * rem {
            if r.is_multiple_of(2) {
                None
            } else {
                Some(r / 2)
            }
        } else {
            Some(r - rem)
        };
        Allreduce { bytes, r, p2, rem, newrank, mask: 1, phase: 0 }
    }
    fn real(&self, nr: u32) -> u32 {
        if nr < self.rem {
            2 * nr + 1
        } else {
            nr + self.rem
        }
    }
}
impl Program for Allreduce {
    fn step(&mut self, cx: &mut Cx) -> Block {
        let r = self.r;
        let b = self.bytes;
        match self.phase {
            0 => {
                self.phase = 1;
                if r < 2 * self.rem {
                    if r.is_multiple_of(2) {
                        cx.isend(r + 1, 1, b);
                    } else {
                        cx.irecv(Some(r - 1), Some(1), b);
                    }
                    return Block::Wait;
                }
                self.step(cx)
            }
            1 => {
                if let Some(nr) = self.newrank {
                    if self.mask < self.p2 {
                        let partner = self.real(nr ^ self.mask);
                        self.mask <<= 1;
                        cx.irecv(Some(partner), Some(2), b);
                        cx.isend(partner, 2, b);
                        return Block::Wait;
                    }
                }
                self.phase = 2;
                if r < 2 * self.rem {
                    if r.is_multiple_of(2) {
                        cx.irecv(Some(r + 1), Some(3), b);
                    } else {
                        cx.isend(r - 1, 3, b);
                    }
                    return Block::Wait;
                }
                Block::Done
            }
            _ => Block::Done,
        }
    }
}

/// Factor p into 3 dimensions as close to a cube as possible.
pub fn dims3(p: u32) -> [u32; 3] {
    let mut best = [p, 1, 1];
    let mut score = u64::MAX;
    for a in 1..=p {
        if !p.is_multiple_of(a) {
            continue;
        }
        for b in 1..=p / a {
            if !(p / a).is_multiple_of(b) {
                continue;
            }
            let c = p / a / b;
            let s = (a.max(b).max(c) - a.min(b).min(c)) as u64;
            if s < score {
                score = s;
                best = [a, b, c];
            }
        }
    }
    best
}

struct Halo {
    nb: [u32; 6],
    bytes: u64,
    iters: u32,
    compute: Time,
    i: u32,
    computed: bool,
}
impl Halo {
    fn new(r: u32, p: u32, bytes: u64, iters: u32, compute: Time) -> Halo {
        let d = dims3(p);
        let c = [r % d[0], (r / d[0]) % d[1], r / (d[0] * d[1])];
        let id = |x: [u32; 3]| x[0] + d[0] * (x[1] + d[1] * x[2]);
        let mut nb = [0; 6];
        for k in 0..3 {
            let mut up = c;
            up[k] = (c[k] + 1) % d[k];
            let mut dn = c;
            dn[k] = (c[k] + d[k] - 1) % d[k];
            nb[2 * k] = id(up);
            nb[2 * k + 1] = id(dn);
        }
        Halo { nb, bytes, iters, compute, i: 0, computed: false }
    }
}
impl Program for Halo {
    fn step(&mut self, cx: &mut Cx) -> Block {
        if self.i == self.iters || cx.size() < 2 {
            return Block::Done;
        }
        if self.compute > 0 && !self.computed {
            self.computed = true;
            return Block::Sleep(self.compute);
        }
        self.computed = false;
        self.i += 1;
        for k in 0..6 {
            // receive from the opposite neighbour with the direction's tag
            cx.irecv(Some(self.nb[k ^ 1]), Some(k as i32), self.bytes);
        }
        for k in 0..6 {
            cx.isend(self.nb[k], k as i32, self.bytes);
        }
        Block::Wait
    }
}

/// One step of a [`Script`]: post these sends and receives, then wait for all.
#[derive(Clone, Debug, Default)]
pub struct Step {
    pub sends: Vec<(u32, u64)>,
    pub recvs: Vec<u32>,
    /// computation before posting
    pub sleep: Time,
}

/// A rank program given as a list of steps.
#[derive(Clone, Debug, Default)]
pub struct Script {
    pub steps: Vec<Step>,
    pub i: usize,
}
impl Program for Script {
    fn step(&mut self, cx: &mut Cx) -> Block {
        let Some(st) = self.steps.get_mut(self.i) else {
            return Block::Done;
        };
        if st.sleep > 0 {
            let s = st.sleep;
            st.sleep = 0;
            return Block::Sleep(s);
        }
        self.i += 1;
        for &s in &st.recvs {
            cx.irecv(Some(s), None, 0);
        }
        for &(d, b) in &st.sends {
            cx.isend(d, 0, b);
        }
        Block::Wait
    }
}
