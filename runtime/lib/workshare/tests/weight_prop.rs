//! The automatic weight rule on the affine cost model with noise.
//!
//! What "balanced within 5 % under 5 % noise" means here: every measured time is the
//! model's time times an independent factor uniform in [1 − e, 1 + e], e ≤ 5 % (the
//! fixed costs the rule is given are measured the same way); the criterion is the
//! imbalance `|t_cpu − t_gpu| / max` of the TRUE (noise-free) times at the weight the
//! rule chose, since the measured ones carry the noise.
//!
//! No rule can promise 5 % for every noise draw at e = 5 %: two loops whose speed
//! ratios differ by `((1+e)/(1−e))²` give the same measurements (one with its noise at
//! +e/−e, the other at −e/+e), so any weight is at least about `2e/(1+e)` (9.5 %) off on
//! one of them (`no_rule_can_promise_five_percent_at_five_percent_noise`). So the tests
//! say, with random seeds:
//! - every case is within 5 % by step 3 when e ≤ 1 %, and within twice that limit
//!   plus 1 %, `max(5 %, 2·2e/(1+e) + 1 %)`, for any e ≤ 5 %;
//! - over random cases with e uniform in [0, 5 %], at least 97 % are within 5 % by
//!   step 3 (about 98.6 % measured over 400,000);
//! - after step 3 the weight never changes again (the rule holds it; its change
//!   detector cannot fire on noise within its bound), and before it there is no swing
//!   across the balance point and back;
//! - a real change of the loop is detected and rebalanced;
//! - the thesis' ±0.01 rule needs ≥ 14 steps from w = 0.2 on the same model.
use proptest::prelude::*;
use xmpc_workshare::weight::{imbalance, paper_rule, AutoWeight, Obs};

/// One loop on a node: N iterations, the CPU b_c s/iteration, the GPU k times faster,
/// fixed per-step costs α, multiplicative noise ±e on every measured time.
struct Model {
    n: u64,
    bc: f64,
    bg: f64,
    ac: f64,
    ag: f64,
    e: f64,
    rng: u64,
    /// Fixed noise factors (cpu, gpu) instead of random ones.
    fixed: Option<(f64, f64)>,
}

impl Model {
    fn new(k: f64, fc: f64, fg: f64, e: f64, seed: u64) -> Self {
        let n = 819_200u64;
        let bc = 1e-6;
        let bg = bc / k;
        // fixed costs as fractions of a GPU-only step
        let step = bg * n as f64;
        Model { n, bc, bg, ac: fc * step, ag: fg * step, e, rng: seed | 1, fixed: None }
    }
    fn times(&self, w: f64) -> (f64, f64) {
        let n = self.n as f64;
        let c = if w * n >= 1.0 { self.ac + self.bc * w * n } else { 0.0 };
        let g = if (1.0 - w) * n >= 1.0 { self.ag + self.bg * (1.0 - w) * n } else { 0.0 };
        (c, g)
    }
    fn noise(&mut self) -> f64 {
        // xorshift64*: uniform in [1 - e, 1 + e]
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        let u = (self.rng.wrapping_mul(0x2545F4914F6CDD1D) >> 11) as f64 / (1u64 << 53) as f64;
        1.0 + self.e * (2.0 * u - 1.0)
    }
    fn measure(&mut self, w: f64) -> Obs {
        let (c, g) = self.times(w);
        let (fc, fg) = match self.fixed {
            Some(f) => f,
            None => (self.noise(), self.noise()),
        };
        Obs { w, n: self.n, t_cpu: c * fc, t_gpu: g * fg }
    }
    fn balanced(&self, w: f64, tol: f64) -> bool {
        self.imb(w) <= tol
    }
    /// Imbalance of the true (noise-free) times at w.
    fn imb(&self, w: f64) -> f64 {
        let (c, g) = self.times(w);
        imbalance(c, g)
    }
}

/// Runs the automatic rule for `steps` steps; returns the weights used at each step.
fn run_auto(m: &mut Model, w0: f64, steps: usize) -> Vec<f64> {
    // the fixed costs are measured (with noise) by empty tasks
    let (ac, ag) = (m.ac * m.noise(), m.ag * m.noise());
    let mut a = AutoWeight::new(ac, ag, 64);
    // a re-split (moving the changed rows between the memories): 0.2 % of a step
    a.resplit_cost = 0.002 * m.bg * m.n as f64;
    let mut w = a.round(w0, m.n);
    let mut ws = vec![w];
    for _ in 0..steps {
        let o = m.measure(w);
        let d = a.observe(o);
        w = d.w;
        ws.push(w);
    }
    ws
}

/// The information limit at noise e: `2e/(1+e)`.
fn limit(e: f64) -> f64 {
    2.0 * e / (1.0 + e)
}

proptest! {
    // Random seeds (proptest's default), 4096 cases a run.
    #![proptest_config(ProptestConfig { cases: 4096, .. ProptestConfig::default() })]

    #[test]
    fn auto_converges_in_three_steps_and_holds(
        k in 2.0f64..200.0,
        fc in 0.0f64..0.5,
        fg in 0.0f64..0.5,
        e in prop_oneof![0.0f64..0.01, 0.0f64..0.05],
        w0 in prop_oneof![Just(0.0), Just(1.0), 0.0f64..1.0],
        seed in any::<u64>(),
    ) {
        let mut m = Model::new(k, fc, fg, e, seed);
        let ws = run_auto(&mut m, w0, 25);
        // Balanced by step 3: within 5 % for e ≤ 1 %, and within twice the
        // information limit plus 1 % (or 5 %) for any e ≤ 5 % (the 1 %: block rounding
        // and the fixed costs' error; 2 million cases needed no more than 0.02 %).
        let tol = if e <= 0.01 { 0.05 } else { 0.05_f64.max(2.0 * limit(e) + 0.01) };
        let first = ws.iter().position(|&w| m.balanced(w, tol));
        prop_assert!(first.is_some_and(|f| f <= 3), "not within {tol:.3} by step 3: {:?}", ws.iter().map(|&w| m.imb(w)).collect::<Vec<_>>());
        prop_assert!(m.balanced(ws[3], tol), "step 3 at {:.4} (tol {tol:.3}): {ws:?}", m.imb(ws[3]));
        // No oscillation: from step 3 on the weight never changes.
        prop_assert!(ws[3..].iter().all(|&w| w == ws[3]), "moved after step 3: {ws:?}");
        // Before it, no swing across the balance point and back.
        let side = |w: f64| { let (c, g) = m.times(w); (c - g).signum() };
        let crossings = ws[..=3].windows(2).filter(|p| side(p[0]) != side(p[1]) && !m.balanced(p[1], tol)).count();
        prop_assert!(crossings <= 1, "overshot {crossings} times: {ws:?}");
    }
}

/// Over random cases with e uniform in [0, 5 %]: the fraction within 5 % by step 3.
#[test]
fn five_percent_by_step_three_in_nearly_every_case() {
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
    let mut r = Model::new(2.0, 0.0, 0.0, 1.0, seed);
    let mut u = move || r.noise() / 2.0; // uniform in [0, 1]
    let cases = 4096;
    let (mut ok, mut ok_high, mut high) = (0, 0, 0);
    for _ in 0..cases {
        let (k, fc, fg, e) = (2.0 + 198.0 * u(), 0.5 * u(), 0.5 * u(), 0.05 * u());
        let w0 = match (u() * 3.0) as u32 {
            0 => 0.0,
            1 => 1.0,
            _ => u(),
        };
        let mut m = Model::new(k, fc, fg, e, (u() * 1e18) as u64);
        let ws = run_auto(&mut m, w0, 6);
        let good = m.balanced(ws[3], 0.05);
        ok += good as u32;
        if e >= 0.04 {
            high += 1;
            ok_high += good as u32;
        }
    }
    let (f, fh) = (ok as f64 / cases as f64, ok_high as f64 / high as f64);
    eprintln!("within 5 % at step 3: {:.2} % of {cases} cases (e in [0, 5 %]); {:.2} % of {high} with e in [4, 5 %] (seed {seed})", 100.0 * f, 100.0 * fh);
    // measured over 400,000 cases: 98.6 % and 95 %
    assert!(f >= 0.97, "only {:.2} % within 5 % (seed {seed})", 100.0 * f);
    assert!(fh >= 0.90, "only {:.2} % within 5 % at e >= 4 % (seed {seed})", 100.0 * fh);
}

/// Two loops that the measurements cannot tell apart, at e = 5 %: whatever weight
/// the rule picks is more than 5 % off on one of them.
#[test]
fn no_rule_can_promise_five_percent_at_five_percent_noise() {
    let e = 0.05;
    let mut a = Model::new(20.0, 0.0, 0.0, e, 1);
    a.fixed = Some((1.0 + e, 1.0 - e));
    let mut b = Model::new(20.0, 0.0, 0.0, e, 1);
    b.bc *= (1.0 + e) / (1.0 - e);
    b.bg *= (1.0 - e) / (1.0 + e);
    b.fixed = Some((1.0 - e, 1.0 + e));
    for w in [0.02, 0.05, 0.3, 0.9] {
        let (oa, ob) = (a.measure(w), b.measure(w));
        assert!((oa.t_cpu / ob.t_cpu - 1.0).abs() < 1e-12 && (oa.t_gpu / ob.t_gpu - 1.0).abs() < 1e-12);
    }
    let (wa, wb) = (run_auto(&mut a, 0.5, 6), run_auto(&mut b, 0.5, 6));
    assert_eq!(wa, wb, "same measurements, same weights");
    let worst = a.imb(wa[3]).max(b.imb(wb[3]));
    assert!(worst > 0.05 && worst >= 0.99 * limit(e), "worst {worst}");
    // and no weight at all does better than the limit on both
    let best = (0..=10_000).map(|i| i as f64 / 10_000.0).map(|w| a.imb(w).max(b.imb(w))).fold(1.0, f64::min);
    assert!(best >= 0.99 * limit(e) && best > 0.09, "best {best}");
}

/// Once holding, a loop whose GPU part becomes twice as slow is detected within two
/// steps and rebalanced; noise within the bound never moves it.
#[test]
fn a_real_change_is_detected_and_rebalanced() {
    let mut m = Model::new(20.0, 0.1, 0.1, 0.03, 7);
    let mut a = AutoWeight::new(m.ac, m.ag, 64);
    let mut w = a.round(0.5, m.n);
    for _ in 0..10 {
        w = a.observe(m.measure(w)).w;
    }
    assert!(a.holding() && m.balanced(w, 0.07), "held at {}", m.imb(w));
    let held = w;
    m.bg *= 2.0;
    let mut ws = vec![];
    for _ in 0..8 {
        w = a.observe(m.measure(w)).w;
        ws.push(w);
    }
    assert!(ws[0] == held, "one inconsistent step is taken for an outlier: {ws:?}");
    assert!(ws[1] != held, "two in a row are a change: {ws:?}");
    assert!(m.balanced(ws[4], 0.07), "rebalanced within 3 moves: {} ({ws:?})", m.imb(ws[4]));
    assert!(ws[4..].iter().all(|&x| x == ws[4]) && a.holding(), "holds again: {ws:?}");
}

#[test]
fn paper_rule_needs_at_least_fourteen_steps_from_a_fifth() {
    // The thesis' cases: the balanced weight is about 0.04-0.06 and it starts at 0.2.
    for k in [16.0, 20.0, 25.0] {
        let mut m = Model::new(k, 0.02, 0.02, 0.0, 1);
        let mut w: f64 = 0.2;
        let mut steps = 0;
        while !m.balanced(w, 0.05) {
            let o = m.measure(w);
            w = paper_rule(w, o.t_cpu, o.t_gpu);
            steps += 1;
            assert!(steps < 100, "paper rule did not converge for k={k}");
        }
        assert!(steps >= 14, "k={k}: paper rule took only {steps} steps");
        // the automatic rule on the same loop
        let ws = run_auto(&mut Model::new(k, 0.02, 0.02, 0.0, 1), 0.2, 5);
        let auto = ws.iter().position(|&x| m.balanced(x, 0.05)).unwrap();
        assert!(auto <= 3, "k={k}: auto took {auto}");
        eprintln!("k={k}: paper rule {steps} steps, auto {auto} steps (w: {ws:?})");
    }
}
