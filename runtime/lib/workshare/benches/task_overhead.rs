//! `cargo bench -p xmpc-workshare`: the work-sharing runtime's cost per task, on
//! 2 CPU workers (target ≤ 5 µs per task). Two shapes, each a device loop of
//! empty-bodied tasks on the `none` device (so only the runtime is timed):
//! - `loop_64_tasks`: one loop of 64 CPU tasks (XMP_STARPU_NCPU=64): per-task cost
//!   = loop time / 64;
//! - `loop_2_tasks`: one loop of 2 tasks, the usual NCPU = workers: the whole
//!   dispatch (wake the workers, run, collect) per loop.
//!
//! Prints the load average before and after: the machine is shared.
use criterion::Criterion;
use std::ffi::c_void;
use std::time::Duration;
use xmpc_workshare::rt::{Dev, LoopReq, Runtime, WeightMode};

unsafe extern "C" fn empty(_lo: i64, _hi: i64, _a: *mut c_void, _r: *mut c_void) {}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg").unwrap_or_default().split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

fn main() {
    eprintln!("load average before: {}", loadavg());
    let mut c = Criterion::default().sample_size(30).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2)).configure_from_args();
    for ntasks in [64usize, 2] {
        // 2 workers; the caller only waits (help = false on a device) — use `none`
        // with 1 pool worker + the caller = 2 workers
        let mut rt = Runtime::new(Dev::None, 1, ntasks, 1, 1, WeightMode::Fixed(1.0), 1.0, false);
        let req = LoopReq {
            name: "bench",
            lo: 0,
            hi: ntasks as i64 * 16 - 1,
            cpu: empty,
            gpu: None,
            args: std::ptr::null_mut(),
            reds: &[],
            bytes_per_iter: 0.0,
            writes: &[],
        };
        let mut out = vec![];
        c.bench_function(&format!("loop_{ntasks}_tasks_2_workers"), |b| b.iter(|| rt.run_loop(&req, &mut out).unwrap()));
        // the same measured by hand, per task
        let n = 20_000 / ntasks.max(1) * 2;
        let t = std::time::Instant::now();
        for _ in 0..n {
            rt.run_loop(&req, &mut out).unwrap();
        }
        let per_task = t.elapsed().as_secs_f64() / (n * ntasks) as f64;
        eprintln!("loop of {ntasks} tasks on 2 workers: {:.2} us per task ({} loops)", per_task * 1e6, n);
    }
    eprintln!("load average after: {}", loadavg());
    c.final_summary();
}
