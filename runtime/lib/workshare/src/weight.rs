//! Choosing the CPU weight w (the CPU's share of a device loop's iterations).
//!
//! Cost model (per device loop, per step): `t_cpu = α_c + b_c·w·N` and
//! `t_gpu = α_g + b_g·(1−w)·N`, with α the fixed per-step costs (task start-up,
//! kernel launches) measured once with empty tasks, and b the per-iteration costs
//! estimated from the measured times. The balanced weight solves `t_cpu = t_gpu`:
//! `w = (α_g − α_c + b_g·N) / ((b_c + b_g)·N)`, clamped to [0, 1], with the GPU
//! share rounded to the device's preferred block. b is pooled over the last
//! [`POOL`] observations, each step's estimate `(t − α)/n` weighted by
//! `((n/t)·(1 − α/t))⁴`: a step that gave a part few iterations, or whose time was
//! mostly the fixed cost, counts little (α is measured once, so its error is shared by
//! every step and does not average out; the 4th power was chosen on the property
//! test's statistics: it halves the cases beyond 5 % against the plain inverse
//! variance). A free affine fit of α would need many more steps under noise.
//!
//! Balancing, then holding: at most [`MAX_MOVES`] re-splits after a (re)start, each
//! skipped when its predicted gain over [`AutoWeight::horizon`] steps is below the
//! measured re-split cost; then the rule holds its weight. While holding, each
//! measurement at the held weight narrows the interval of true times it allows under
//! the noise bound [`AutoWeight::noise_bound`]; noise within the bound can never empty
//! it, so the weight never moves on noise (no oscillation). [`CHANGE_STRIKES`]
//! inconsistent measurements in a row mean the loop changed: it balances again.
//!
//! What the noise allows: with every measured time off by up to ±e, two loops whose
//! speed ratios differ by `((1+e)/(1−e))²` can give the same measurements, so no rule
//! can promise a true imbalance below about `2e/(1+e)` on every noise draw (9.5 % at
//! e = 5 %). `tests/weight_prop.rs` states what this rule reaches (docs/xmp-dev.md).
//!
//! [`paper_rule`] is the thesis' user rule (±0.01 when the CPU share of the time
//! leaves 49–51 %), kept for comparison.

/// How many recent observations the per-iteration costs are pooled over.
pub const POOL: usize = 8;

/// Re-splits the rule makes after a (re)start before it holds its weight.
pub const MAX_MOVES: u32 = 3;

/// Consecutive inconsistent measurements at the held weight that count as a change
/// of the loop (one is taken for an outlier and dropped).
pub const CHANGE_STRIKES: u32 = 2;

/// One measured step of a device loop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obs {
    /// The weight the step ran with (after block rounding).
    pub w: f64,
    /// Iterations of the loop on this node.
    pub n: u64,
    /// CPU part's time (s) and GPU part's time (s).
    pub t_cpu: f64,
    pub t_gpu: f64,
}

/// What the rule decided after a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// The weight for the next step (equal to the old one when skipped).
    pub w: f64,
    /// The weight the model asked for before the gain test.
    pub proposed: f64,
    /// Predicted time saved per step by `proposed` (s).
    pub gain: f64,
    /// True when the weight changes (a re-split).
    pub resplit: bool,
}

/// The automatic rule's state for one device loop.
#[derive(Clone, Debug)]
pub struct AutoWeight {
    /// Fixed per-step costs of the CPU part and the GPU part (s), measured.
    pub alpha_cpu: f64,
    pub alpha_gpu: f64,
    /// Preferred block of the GPU share (iterations), ≥ 1.
    pub block: u64,
    /// Measured cost of one re-split (s); 0 until measured.
    pub resplit_cost: f64,
    /// Steps a re-split is expected to pay off over.
    pub horizon: f64,
    /// Dead band: no re-split while the model puts the current imbalance
    /// `|t_cpu − t_gpu| / max` below this. 0 by default: the hold after
    /// [`MAX_MOVES`] re-splits is what keeps the rule from chasing noise, and a dead
    /// band only left more imbalance behind.
    pub dead_band: f64,
    /// Bound on the relative noise of one measured time (default 5 %): the change
    /// detector only calls a measurement inconsistent beyond it.
    pub noise_bound: f64,
    /// Re-splits since the last (re)start; after [`MAX_MOVES`] the rule holds.
    moves: u32,
    /// `Some` once the rule holds its weight: the weight and, per part, the interval
    /// of true times consistent with every measurement taken at it.
    hold: Option<Hold>,
    hist: Vec<Obs>,
}

/// The held weight and what the measurements at it say (see [`AutoWeight::observe`]).
#[derive(Clone, Debug)]
struct Hold {
    w: f64,
    /// Feasible true times of the CPU part and the GPU part, `None` until measured
    /// (or when the part has no iterations).
    cpu: Option<(f64, f64)>,
    gpu: Option<(f64, f64)>,
    /// Consecutive measurements inconsistent with the intervals.
    strikes: u32,
}

impl AutoWeight {
    pub fn new(alpha_cpu: f64, alpha_gpu: f64, block: u64) -> Self {
        AutoWeight {
            alpha_cpu: alpha_cpu.max(0.0),
            alpha_gpu: alpha_gpu.max(0.0),
            block: block.max(1),
            resplit_cost: 0.0,
            horizon: 10.0,
            dead_band: 0.0,
            noise_bound: 0.05,
            moves: 0,
            hold: None,
            hist: vec![],
        }
    }

    /// Per-iteration costs pooled over the recent steps that ran each part, each
    /// step's estimate `(t − α)/n` weighted by `((n/t)·(1 − α/t))⁴` (module docs).
    fn rates(&self) -> (Option<f64>, Option<f64>) {
        let (mut sc, mut wc, mut sg, mut wg) = (0.0, 0.0, 0.0, 0.0);
        for o in self.hist.iter().rev().take(POOL) {
            let n = o.n as f64;
            let (c, g) = (o.w * n, (1.0 - o.w) * n);
            if c >= 1.0 && o.t_cpu > 0.0 {
                let wt = (c * (o.t_cpu - self.alpha_cpu).max(0.0) / (o.t_cpu * o.t_cpu)).powi(4);
                sc += wt * (o.t_cpu - self.alpha_cpu).max(0.0) / c;
                wc += wt;
            }
            if g >= 1.0 && o.t_gpu > 0.0 {
                let wt = (g * (o.t_gpu - self.alpha_gpu).max(0.0) / (o.t_gpu * o.t_gpu)).powi(4);
                sg += wt * (o.t_gpu - self.alpha_gpu).max(0.0) / g;
                wg += wt;
            }
        }
        let r = |s: f64, w: f64| {
            if w > 0.0 {
                Some((s / w).max(1e-15))
            } else {
                None
            }
        };
        (r(sc, wc), r(sg, wg))
    }

    /// Rounds w so that the GPU share is a whole number of blocks (or the rest).
    pub fn round(&self, w: f64, n: u64) -> f64 {
        round_weight(w, n, self.block)
    }

    /// True while the rule holds its weight (after [`MAX_MOVES`] re-splits, or once a
    /// re-split was not worth it), until a change of the loop is detected.
    pub fn holding(&self) -> bool {
        self.hold.is_some()
    }

    /// Feeds one step's times, returns the weight for the next step.
    ///
    /// Balancing: up to [`MAX_MOVES`] re-splits to the model's balanced weight, each
    /// skipped when the gain test or the dead band says it is not worth it; then the
    /// rule holds. Holding: every measurement at the held weight narrows, per part, the
    /// interval of true times consistent with all of them under the noise bound
    /// (`t/(1+E) ..= t/(1−E)`). Noise within the bound can never empty it, so the rule
    /// never moves again on noise; [`CHANGE_STRIKES`] inconsistent measurements in a row
    /// mean the loop changed: the history is dropped and it balances again.
    pub fn observe(&mut self, o: Obs) -> Decision {
        let keep = Decision { w: o.w, proposed: o.w, gain: 0.0, resplit: false };
        if let Some(h) = &mut self.hold {
            if h.w == o.w {
                let e = self.noise_bound;
                let meet = |iv: Option<(f64, f64)>, t: f64, part: bool| -> Result<Option<(f64, f64)>, ()> {
                    if !part || t <= 0.0 {
                        return Ok(iv);
                    }
                    let (lo, hi) = (t / (1.0 + e), t / (1.0 - e).max(1e-9));
                    match iv {
                        None => Ok(Some((lo, hi))),
                        Some((a, b)) if lo.max(a) <= hi.min(b) => Ok(Some((lo.max(a), hi.min(b)))),
                        Some(_) => Err(()),
                    }
                };
                let n = o.n as f64;
                let c = meet(h.cpu, o.t_cpu, o.w * n >= 1.0);
                let g = meet(h.gpu, o.t_gpu, (1.0 - o.w) * n >= 1.0);
                match (c, g) {
                    (Ok(c), Ok(g)) => {
                        h.cpu = c;
                        h.gpu = g;
                        h.strikes = 0;
                        self.push(o);
                        return keep;
                    }
                    _ if h.strikes + 1 < CHANGE_STRIKES => {
                        h.strikes += 1;
                        return keep; // an outlier: dropped
                    }
                    _ => {
                        // the loop changed: the measurements before it are stale
                        self.hist.clear();
                        self.hold = None;
                        self.moves = 0;
                    }
                }
            } else {
                // the weight was set from outside (reset_weight): start again
                self.hold = None;
                self.moves = 0;
                self.hist.clear();
            }
        }
        self.push(o);
        let n = o.n as f64;
        if o.n == 0 {
            return keep;
        }
        let (ac, ag) = (self.alpha_cpu, self.alpha_gpu);
        let proposed = match self.rates() {
            (Some(bc), Some(bg)) => ((ag - ac + bg * n) / ((bc + bg) * n)).clamp(0.0, 1.0),
            // Only one part has run: probe the other with a small share.
            (Some(_), None) => 0.5,
            (None, Some(_)) => 0.05_f64.max(self.block as f64 / n).min(0.5),
            (None, None) => return keep,
        };
        // Round the GPU share to whole blocks, down or up, whichever the model says is
        // faster (with a fast GPU one block moves the CPU time more than balance does).
        let model = |w: f64| -> Option<(f64, f64)> {
            let (Some(bc), Some(bg)) = self.rates() else {
                return None;
            };
            let c = if w * n >= 1.0 { (ac + bc * w * n).max(0.0) } else { 0.0 };
            let g = if (1.0 - w) * n >= 1.0 { (ag + bg * (1.0 - w) * n).max(0.0) } else { 0.0 };
            Some((c, g))
        };
        let b = self.block as f64 / n;
        let gshare = ((1.0 - proposed) / b).floor() * b;
        let cands = [1.0 - gshare, 1.0 - gshare - b, self.round(proposed, o.n)];
        let proposed = cands
            .iter()
            .map(|&w| if (0.0..=1.0).contains(&w) { w } else { self.round(proposed, o.n) })
            .min_by(|&a, &b| {
                let t = |w: f64| model(w).map_or(0.0, |(c, g)| c.max(g));
                t(a).total_cmp(&t(b))
            })
            .unwrap_or(proposed);
        let (gain, imb) = match (model(o.w), model(proposed)) {
            // The model's prediction for both weights, so that noise in this one
            // measurement neither hides nor fakes a gain.
            (Some((c0, g0)), Some((c1, g1))) => (c0.max(g0) - c1.max(g1), imbalance(c0, g0)),
            _ => (f64::INFINITY, 1.0), // a probe: no prediction possible
        };
        if proposed == o.w || gain * self.horizon <= self.resplit_cost || gain <= 0.0 || imb <= self.dead_band {
            self.start_hold(o);
            return Decision { w: o.w, proposed, gain, resplit: false };
        }
        self.moves += 1;
        if self.moves >= MAX_MOVES {
            // hold the new weight; its first measurement starts the intervals
            self.hold = Some(Hold { w: proposed, cpu: None, gpu: None, strikes: 0 });
        }
        Decision { w: proposed, proposed, gain, resplit: true }
    }

    fn push(&mut self, o: Obs) {
        self.hist.push(o);
        if self.hist.len() > POOL {
            self.hist.remove(0);
        }
    }

    /// Holds `o.w` from now on, with `o` as its first measurement.
    fn start_hold(&mut self, o: Obs) {
        self.hold = Some(Hold { w: o.w, cpu: None, gpu: None, strikes: 0 });
        self.hist.pop();
        let _ = self.observe(o);
    }
}

/// w with the GPU share `(1−w)·n` rounded to a multiple of `block` (the last
/// block may be short when it takes everything).
pub fn round_weight(w: f64, n: u64, block: u64) -> f64 {
    if n == 0 {
        return w.clamp(0.0, 1.0);
    }
    let g = ((1.0 - w.clamp(0.0, 1.0)) * n as f64 / block as f64).round() as u64 * block;
    let g = g.min(n);
    1.0 - g as f64 / n as f64
}

/// The thesis' rule (list 4.6): move w by 0.01 towards balance.
pub fn paper_rule(w: f64, t_cpu: f64, t_gpu: f64) -> f64 {
    let ratio = t_cpu / (t_cpu + t_gpu) * 100.0;
    let mut w = w;
    if ratio > 51.0 {
        w -= 0.01;
    }
    if ratio < 49.0 {
        w += 0.01;
    }
    w.clamp(0.0, 1.0)
}

/// Noise-free imbalance `|t_cpu − t_gpu| / max` of the affine model (for tests,
/// benches and the emulated device's report).
pub fn imbalance(t_cpu: f64, t_gpu: f64) -> f64 {
    let m = t_cpu.max(t_gpu);
    if m <= 0.0 {
        0.0
    } else {
        (t_cpu - t_gpu).abs() / m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_costs_balance_in_one_step() {
        // GPU 20x faster, no fixed costs: w* = 1/21
        let n = 21_000u64;
        let mut a = AutoWeight::new(0.0, 0.0, 1);
        let (bc, bg) = (1e-6, 1e-6 / 20.0);
        let w0 = 0.5;
        let d = a.observe(Obs { w: w0, n, t_cpu: bc * w0 * n as f64, t_gpu: bg * (1.0 - w0) * n as f64 });
        assert!(d.resplit);
        assert!((d.w - 1.0 / 21.0).abs() < 1e-9, "{}", d.w);
    }

    #[test]
    fn fixed_costs_shift_the_balance() {
        // α_g = 1 ms of launch: the CPU takes more than the speed ratio says.
        let n = 100_000u64;
        let (bc, bg, ag) = (1e-7, 1e-8, 1e-3);
        let mut a = AutoWeight::new(0.0, ag, 1);
        let w0 = 0.2;
        let d = a.observe(Obs { w: w0, n, t_cpu: bc * w0 * n as f64, t_gpu: ag + bg * (1.0 - w0) * n as f64 });
        let (tc, tg) = (bc * d.w * n as f64, ag + bg * (1.0 - d.w) * n as f64);
        assert!(imbalance(tc, tg) < 1e-3, "w {} tc {tc} tg {tg}", d.w);
        assert!(d.w > 1.0 / 11.0, "the launch cost moves work to the CPU: {}", d.w);
    }

    #[test]
    fn rounding_keeps_gpu_share_whole_blocks() {
        let w = round_weight(0.3, 1000, 72);
        let g = ((1.0 - w) * 1000.0).round() as u64;
        assert_eq!(g % 72, 0);
        assert_eq!(g, 720);
        assert_eq!(round_weight(0.0, 1000, 72), 0.0, "all on the GPU keeps the short last block");
        assert_eq!(round_weight(1.0, 1000, 72), 1.0);
    }

    #[test]
    fn small_gain_below_resplit_cost_is_skipped() {
        let n = 10_000u64;
        let mut a = AutoWeight::new(0.0, 0.0, 1);
        a.resplit_cost = 1.0; // a whole second: never worth it
        let d = a.observe(Obs { w: 0.5, n, t_cpu: 0.010, t_gpu: 0.008 });
        assert!(!d.resplit);
        assert_eq!(d.w, 0.5);
        assert!(d.proposed < 0.5 && d.gain > 0.0);
    }

    #[test]
    fn paper_rule_moves_by_a_hundredth() {
        assert!((paper_rule(0.2, 3.0, 1.0) - 0.19).abs() < 1e-12);
        assert!((paper_rule(0.2, 1.0, 3.0) - 0.21).abs() < 1e-12);
        assert_eq!(paper_rule(0.2, 1.0, 1.0), 0.2);
    }
}
