//! The work-sharing runtime on the devices that run without a GPU: `none` and the
//! emulated GPU. Every iteration runs exactly once, whatever the split; reductions
//! are combined over the tasks; `auto` balances an N-body-like loop in ≤ 3 steps.
use std::ffi::c_void;
use xmpc_workshare::device::Emu;
use xmpc_workshare::rt::{Dev, LoopReq, RedOp, RedTy, Runtime, WeightMode};
use xmpc_workshare::weight::imbalance;

struct Args {
    a: *const f64,
    b: *mut f64,
    hits: *const std::sync::atomic::AtomicU32,
}

/// b[i] = 2 a[i]; sum += a[i]; max = max(max, a[i]); counts each iteration.
unsafe extern "C" fn body(lo: i64, hi: i64, args: *mut c_void, red: *mut c_void) {
    let a = &*(args as *const Args);
    let red = red as *mut f64;
    for i in lo..=hi {
        let x = *a.a.add(i as usize);
        *a.b.add(i as usize) = 2.0 * x;
        *red += x;
        if x > *red.add(1) {
            *red.add(1) = x;
        }
        (*a.hits.add(i as usize)).fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

fn emu(iter_ns: Option<f64>) -> Dev {
    Dev::Emu(Emu { speed: 20.0, launch_us: 5.0, gbps: 25.0, iter_ns })
}

fn run_once(rt: &mut Runtime, n: usize) -> (Vec<f64>, [f64; 2]) {
    let a: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1000) as f64 * 0.5).collect();
    let mut b = vec![0.0; n];
    let hits: Vec<std::sync::atomic::AtomicU32> = (0..n).map(|_| 0.into()).collect();
    let mut args = Args { a: a.as_ptr(), b: b.as_mut_ptr(), hits: hits.as_ptr() };
    let reds = [(RedOp::Sum, RedTy::F64), (RedOp::Max, RedTy::F64)];
    let req = LoopReq {
        name: "t",
        lo: 0,
        hi: n as i64 - 1,
        cpu: body,
        gpu: None,
        args: &mut args as *mut Args as *mut c_void,
        reds: &reds,
        bytes_per_iter: 16.0,
        writes: &[],
    };
    let mut out = vec![[0u8; 8]; 2];
    rt.run_loop(&req, &mut out).unwrap();
    assert!(hits.iter().all(|h| h.load(std::sync::atomic::Ordering::Relaxed) == 1), "an iteration ran twice or never");
    for i in 0..n {
        assert_eq!(b[i], 2.0 * a[i]);
    }
    let s: f64 = a.iter().sum();
    let m = a.iter().cloned().fold(f64::MIN, f64::max);
    let got = [f64::from_ne_bytes(out[0]), f64::from_ne_bytes(out[1])];
    assert!((got[0] - s).abs() <= 1e-9 * s, "sum {} vs {s}", got[0]);
    assert_eq!(got[1], m);
    (b, got)
}

#[test]
fn none_runs_everything_on_the_cpu() {
    let mut rt = Runtime::new(Dev::None, 2, 4, 1, 64, WeightMode::Fixed(0.3), 0.3, false);
    run_once(&mut rt, 10_000);
    assert_eq!(rt.last.w, 1.0, "without a device w is forced to 1");
    assert_eq!(rt.last.n_gpu, 0);
}

#[test]
fn emu_splits_by_weight_and_names_itself() {
    for w in [0.0, 0.25, 0.7, 1.0] {
        let mut rt = Runtime::new(emu(None), 1, 3, 2, 64, WeightMode::Fixed(w), w, false);
        run_once(&mut rt, 10_001);
        assert_eq!(rt.last.n_cpu + rt.last.n_gpu, 10_001);
        assert!(rt.last.n_gpu.is_multiple_of(64) || rt.last.n_gpu == 10_001, "the GPU share is whole blocks");
        assert!((rt.last.w - w).abs() < 0.01, "{} vs {w}", rt.last.w);
        if w < 1.0 {
            assert!(rt.last.t_gpu > 0.0);
        }
        assert!(rt.dev.label().contains("emulated GPU"));
    }
}

#[test]
fn reset_weight_changes_the_next_loop() {
    let mut rt = Runtime::new(emu(None), 1, 2, 1, 1, WeightMode::Fixed(0.5), 0.5, false);
    run_once(&mut rt, 1000);
    assert_eq!(rt.last.n_cpu, 500);
    rt.reset_weight(0.2);
    run_once(&mut rt, 1000);
    assert_eq!(rt.last.n_cpu, 200);
}

/// An N-body-like loop (each iteration costs the same), CPU and emulated GPU times
/// both modelled (iter_ns) so the run is deterministic on a loaded machine:
/// `auto` from w = 0.2 balances to 5 % in ≤ 3 steps and stays there.
#[test]
fn auto_balances_an_nbody_loop_in_three_steps_on_the_emulated_gpu() {
    let mut rt = Runtime::new(emu(Some(20.0)), 1, 1, 1, 72, WeightMode::Auto, 0.2, true);
    let mut imb = vec![];
    let mut ws = vec![];
    for _ in 0..8 {
        run_once(&mut rt, 819_200); // the thesis size; blocks of 72 as in the thesis
        imb.push(imbalance(rt.last.t_cpu, rt.last.t_gpu));
        ws.push(rt.last.w);
    }
    eprintln!("w {ws:?}\nimbalance {imb:?}");
    let first = imb.iter().position(|&x| x <= 0.05).expect("balanced");
    assert!(first <= 3, "balanced at step {first}: {imb:?}");
    assert!(imb[first..].iter().all(|&x| x <= 0.05), "left the band: {imb:?}");
}
