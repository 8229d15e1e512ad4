//! Index math of one distributed template dimension (pure; unit-tested).

pub(crate) const DUP: i32 = 0;
pub(crate) const BLOCK: i32 = 1;
pub(crate) const CYCLIC: i32 = 2;
pub(crate) const GBLOCK: i32 = 3;

/// One template dimension `lower..=upper` distributed over `procs` nodes.
#[derive(Clone, Debug, PartialEq)]
pub struct Dist {
    pub format: i32,
    pub lower: i64,
    pub upper: i64,
    pub procs: i64,
    /// Block size (block) or cycle width (cyclic); 1 for dup.
    pub w: i64,
    /// gblock: start of each node's block, `procs + 1` entries (absolute).
    pub starts: Vec<i64>,
}

/// A chunked iteration set, see `xmpc_sched` in the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunks {
    pub first: i64,
    pub last: i64,
    pub width: i64,
    pub stride: i64,
}

pub(crate) const EMPTY: Chunks = Chunks { first: 1, last: 0, width: 1, stride: 1 };

pub fn div_floor(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

pub fn div_ceil(a: i64, b: i64) -> i64 {
    -(-a).div_euclid(b)
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Dist {
    /// Checks arguments; `arg` is block(n)'s n (0 = default) or cyclic(w)'s w.
    pub fn new(format: i32, lower: i64, upper: i64, procs: i64, arg: i64, map: Option<&[i64]>) -> Result<Dist, String> {
        let n = upper - lower + 1;
        let mut d = Dist { format, lower, upper, procs: procs.max(1), w: 1, starts: vec![] };
        match format {
            DUP => d.procs = 1,
            BLOCK => {
                d.w = if arg > 0 { arg } else { div_ceil(n.max(1), d.procs) };
                if d.w * d.procs < n {
                    return Err(format!("block({}) on {} nodes covers {} of the template's {} elements", d.w, d.procs, d.w * d.procs, n));
                }
            }
            CYCLIC => {
                if arg < 0 {
                    return Err(format!("cyclic width {arg} must be positive"));
                }
                d.w = arg.max(1);
            }
            GBLOCK => {
                let m = map.ok_or("gblock without a mapping array")?;
                if m.len() as i64 != d.procs {
                    return Err(format!("gblock mapping has {} entries for {} nodes", m.len(), d.procs));
                }
                // As Omni: a mapping that sums to more than the template is cut at its
                // end (the later nodes own nothing; entries after the one that reaches
                // the end are not read: Omni's intrinsic_transpose_FJ passes a 2-entry
                // array for 4 nodes); one that sums to less is an error.
                let mut s = lower;
                d.starts.push(s);
                for &x in m {
                    if s <= upper {
                        if x < 0 {
                            return Err(format!("gblock mapping has a negative size {x}"));
                        }
                        s += x;
                    }
                    d.starts.push(s.min(upper + 1));
                }
                if s - lower < n {
                    return Err(format!("gblock mapping sums to {} but the template has {} elements", s - lower, n));
                }
            }
            f => return Err(format!("unknown distribution format {f}")),
        }
        Ok(d)
    }

    /// The node coordinate owning template index `t` (0 for dup).
    pub fn owner(&self, t: i64) -> i64 {
        match self.format {
            BLOCK => (t - self.lower) / self.w,
            CYCLIC => ((t - self.lower) / self.w) % self.procs,
            GBLOCK => (self.starts.partition_point(|&s| s <= t) as i64 - 1).clamp(0, self.procs - 1),
            _ => 0,
        }
    }

    /// Owned range of coordinate `c` for block/gblock/dup (empty: lo > hi).
    pub fn range(&self, c: i64) -> (i64, i64) {
        match self.format {
            BLOCK => (self.lower + c * self.w, (self.lower + (c + 1) * self.w - 1).min(self.upper)),
            GBLOCK => (self.starts[c as usize], self.starts[c as usize + 1] - 1),
            _ => (self.lower, self.upper),
        }
    }

    /// Start of coordinate `c`'s k-th cyclic block.
    pub fn cyc_start(&self, c: i64, k: i64) -> i64 {
        self.lower + (k * self.procs + c) * self.w
    }

    /// Coordinate `c`'s iterations of `for (i = lo; i <= hi; i += step)`, as
    /// disjoint chunk sets. One set except for cyclic(w) when lo falls inside
    /// one of c's blocks (a partial head chunk) or step does not divide P*w
    /// (one set per block phase).
    pub fn sched(&self, c: i64, lo: i64, hi: i64, step: i64) -> Vec<Chunks> {
        if lo > hi {
            return vec![];
        }
        let last_all = lo + (hi - lo) / step * step;
        let up = |x: i64| lo + div_ceil(x - lo, step) * step;
        let down = |x: i64| lo + div_floor(x - lo, step) * step;
        let single = |f: i64, l: i64| {
            if f > l {
                vec![]
            } else {
                vec![Chunks { first: f, last: l, width: l - f + 1, stride: l - f + 1 }]
            }
        };
        match self.format {
            BLOCK | GBLOCK | DUP => {
                let (a, b) = self.range(c);
                if a > b {
                    return vec![];
                }
                single(up(a.max(lo)), down(b.min(hi)))
            }
            _ => {
                let period = self.procs * self.w;
                let base = self.cyc_start(c, 0);
                // first block of c that ends at or after lo
                let k0 = div_ceil(lo - base - self.w + 1, period).max(0);
                let b0 = self.cyc_start(c, k0);
                let mut out = vec![];
                let mut k1 = k0;
                if b0 < lo {
                    out.extend(single(lo, down((b0 + self.w - 1).min(hi))));
                    k1 += 1;
                }
                let lambda = period / gcd(period, step) * step;
                for j in 0..lambda / period {
                    let b = self.cyc_start(c, k1 + j);
                    let cs = up(b);
                    let width = b + self.w - cs;
                    if width <= 0 || cs > last_all {
                        continue;
                    }
                    out.push(Chunks { first: cs, last: last_all, width, stride: lambda });
                }
                out
            }
        }
    }
}

/// Expands chunk sets the way generated code walks them.
#[cfg(test)]
pub fn expand(sets: &[Chunks], step: i64) -> Vec<i64> {
    let mut v = vec![];
    for s in sets {
        let mut c = s.first;
        while c <= s.last {
            let mut i = c;
            while i <= (c + s.width - 1).min(s.last) {
                v.push(i);
                i += step;
            }
            c += s.stride;
        }
    }
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tiny deterministic generator (no external crates).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self, n: i64) -> i64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as i64
        }
    }

    fn random_dist(r: &mut Rng) -> Dist {
        let lower = r.next(7) - 3;
        let n = r.next(40) + 1;
        let p = r.next(5) + 1;
        match r.next(5) {
            0 => Dist::new(DUP, lower, lower + n - 1, p, 0, None).unwrap(),
            1 => Dist::new(BLOCK, lower, lower + n - 1, p, 0, None).unwrap(),
            2 => {
                let b = div_ceil(n, p) + r.next(3);
                Dist::new(BLOCK, lower, lower + n - 1, p, b, None).unwrap()
            }
            3 => Dist::new(CYCLIC, lower, lower + n - 1, p, r.next(4) + 1, None).unwrap(),
            _ => {
                let mut m = vec![0; p as usize];
                for _ in 0..n {
                    m[r.next(p) as usize] += 1;
                }
                Dist::new(GBLOCK, lower, lower + n - 1, p, 0, Some(&m)).unwrap()
            }
        }
    }

    fn owns(d: &Dist, c: i64, t: i64) -> bool {
        d.format == DUP || d.owner(t) == c
    }

    #[test]
    fn owners_partition_the_template() {
        let mut r = Rng(0x9e3779b97f4a7c15);
        for _ in 0..2000 {
            let d = random_dist(&mut r);
            for t in d.lower..=d.upper {
                let n = (0..d.procs).filter(|&c| owns(&d, c, t)).count();
                assert_eq!(n, 1, "{d:?} t={t}");
                if d.format != CYCLIC {
                    let c = d.owner(t);
                    let (a, b) = d.range(c);
                    assert!(a <= t && t <= b, "{d:?} t={t}");
                }
            }
        }
    }

    #[test]
    fn block_and_cyclic_examples() {
        let d = Dist::new(BLOCK, 0, 9, 4, 0, None).unwrap();
        assert_eq!(d.w, 3);
        assert_eq!(d.range(3), (9, 9));
        assert_eq!(d.owner(8), 2);
        let d = Dist::new(CYCLIC, 1, 10, 3, 2, None).unwrap();
        assert_eq!((1..=10).map(|t| d.owner(t)).collect::<Vec<_>>(), [0, 0, 1, 1, 2, 2, 0, 0, 1, 1]);
        let d = Dist::new(GBLOCK, 0, 9, 3, 0, Some(&[2, 0, 8])).unwrap();
        assert_eq!(d.range(1), (2, 1));
        assert_eq!(d.owner(2), 2);
        assert!(Dist::new(BLOCK, 0, 9, 2, 4, None).is_err());
        assert!(Dist::new(GBLOCK, 0, 9, 2, 0, Some(&[3, 3])).is_err());
        // more than the template: cut at its end, later entries unread (Omni)
        let d = Dist::new(GBLOCK, 0, 9, 4, 0, Some(&[4, 7, -5, 3])).unwrap();
        assert_eq!(d.starts, vec![0, 4, 10, 10, 10]);
        assert_eq!(d.range(2), (10, 9));
        assert_eq!(d.owner(9), 1);
    }

    #[test]
    fn sched_matches_brute_force() {
        let mut r = Rng(12345);
        for _ in 0..20000 {
            let d = random_dist(&mut r);
            let lo = d.lower + r.next(d.upper - d.lower + 1);
            let hi = d.lower + r.next(d.upper - d.lower + 1);
            let step = r.next(6) + 1;
            let mut all = vec![];
            for c in 0..d.procs {
                let sets = d.sched(c, lo, hi, step);
                let got = expand(&sets, step);
                let want: Vec<i64> = (lo..=hi).step_by(step as usize).filter(|&i| owns(&d, c, i)).collect();
                assert_eq!(got, want, "{d:?} c={c} lo={lo} hi={hi} step={step} sets={sets:?}");
                for s in &sets {
                    assert_eq!((s.first - lo) % step, 0);
                    assert!(s.stride > 0 && s.width > 0);
                }
                all.extend(got);
            }
            all.sort();
            let n = if lo <= hi { (hi - lo) / step + 1 } else { 0 };
            assert_eq!(all.len() as i64, n);
        }
    }

    #[test]
    fn sched_single_set_cases() {
        // plain cyclic is always one set, with stride P/gcd(P,step)*step
        let d = Dist::new(CYCLIC, 0, 99, 4, 1, None).unwrap();
        let s = d.sched(1, 0, 99, 2);
        assert!(s.is_empty());
        let s = d.sched(1, 1, 99, 2);
        assert_eq!(s, vec![Chunks { first: 1, last: 99, width: 1, stride: 4 }]);
        let d = Dist::new(BLOCK, 0, 99, 4, 0, None).unwrap();
        assert_eq!(d.sched(1, 0, 99, 1), vec![Chunks { first: 25, last: 49, width: 25, stride: 25 }]);
    }
}
