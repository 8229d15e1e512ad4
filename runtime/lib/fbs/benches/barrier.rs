//! `cargo bench -p xmpc-fbs`: the FBS thread barrier against
//! `std::sync::Barrier`, `hurdles`, `spin`, glibc `pthread_barrier_wait` and
//! libgomp's `#pragma omp barrier` (benches/omp_barrier.c, compiled here with
//! the C compiler the `cc` crate finds, `-fopenmp`), plus a DAXPY loop with a
//! barrier per step (the paper's Fig. 4-5 in miniature).
//!
//! Two parts: criterion groups for the 2-thread barriers (quick settings),
//! then the table that docs/fbs.md reports: threads pinned (sequential
//! mapping), variants alternated round by round (order reversed every other
//! round), each sample the mean of `FBS_BATCH` barrier episodes, min / median
//! / p99 over the samples of the kept rounds. Before and after each
//! (variant, round) the bench reads /proc/loadavg and /proc/stat: a round in
//! which other processes used more than `FBS_MAX_FOREIGN` cores (default
//! 0.10) is discarded. If all rounds of a variant are discarded its row is
//! computed from all of them and marked LOADED.
//!
//! Environment: FBS_BENCH=table (skip criterion), FBS_PARTS (default
//! "2,3,4,daxpy": which tables), FBS_ROUNDS (default 7),
//! FBS_SAMPLES (100), FBS_BATCH (1000), FBS_MAX_FOREIGN (0.10).

use criterion::Criterion;
use std::cell::UnsafeCell;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};
use xmpc_fbs::{pin, Barrier as Fbs, Layout, Mapping, Policy};

// ---------------------------------------------------------------- variants

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Fbs,
    FbsPacked,
    Std,
    Hurdles,
    Spin,
    Pthread,
    Gomp,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Fbs => "FBS (separate lines)",
            Kind::FbsPacked => "FBS (one line)",
            Kind::Std => "std::sync::Barrier",
            Kind::Hurdles => "hurdles 1.0",
            Kind::Spin => "spin 0.12 Barrier",
            Kind::Pthread => "pthread_barrier_wait",
            Kind::Gomp => "libgomp omp barrier",
        }
    }
    /// Spin-only barriers: milliseconds per episode when oversubscribed.
    fn pure_spin(self) -> bool {
        matches!(self, Kind::Hurdles | Kind::Spin)
    }
}

struct Pthread(UnsafeCell<libc::pthread_barrier_t>);
// SAFETY: pthread barriers are made to be shared between threads.
unsafe impl Sync for Pthread {}
unsafe impl Send for Pthread {}

impl Pthread {
    fn new(n: usize) -> Pthread {
        // SAFETY: zeroed storage initialised by pthread_barrier_init.
        let b = Pthread(UnsafeCell::new(unsafe { std::mem::zeroed() }));
        unsafe { libc::pthread_barrier_init(b.0.get(), std::ptr::null(), n as u32) };
        b
    }
    fn wait(&self) {
        // SAFETY: initialised, destroyed only on drop.
        unsafe { libc::pthread_barrier_wait(self.0.get()) };
    }
}

impl Drop for Pthread {
    fn drop(&mut self) {
        // SAFETY: no thread waits any more.
        unsafe { libc::pthread_barrier_destroy(self.0.get()) };
    }
}

type Waiter = Box<dyn FnMut() + Send>;

/// One waiter closure per participant.
fn waiters(kind: Kind, n: usize) -> Vec<Waiter> {
    match kind {
        Kind::Fbs | Kind::FbsPacked => {
            let layout = if kind == Kind::Fbs { Layout::Separate } else { Layout::Packed };
            let b = Arc::new(Fbs::with(n, layout, Policy::for_participants(n)));
            (0..n)
                .map(|i| {
                    let b = b.clone();
                    Box::new(move || b.wait(i)) as Waiter
                })
                .collect()
        }
        Kind::Std => {
            let b = Arc::new(std::sync::Barrier::new(n));
            (0..n)
                .map(|_| {
                    let b = b.clone();
                    Box::new(move || {
                        b.wait();
                    }) as Waiter
                })
                .collect()
        }
        Kind::Hurdles => {
            let b = hurdles::Barrier::new(n);
            (0..n)
                .map(|_| {
                    let mut b = b.clone();
                    Box::new(move || {
                        b.wait();
                    }) as Waiter
                })
                .collect()
        }
        Kind::Spin => {
            let b = Arc::new(spin::Barrier::new(n));
            (0..n)
                .map(|_| {
                    let b = b.clone();
                    Box::new(move || {
                        b.wait();
                    }) as Waiter
                })
                .collect()
        }
        Kind::Pthread => {
            let b = Arc::new(Pthread::new(n));
            (0..n)
                .map(|_| {
                    let b = b.clone();
                    Box::new(move || b.wait()) as Waiter
                })
                .collect()
        }
        Kind::Gomp => unreachable!("libgomp runs in its own process"),
    }
}

/// `n` pinned threads run `warm` episodes, then `samples` batches of `batch`
/// episodes; thread 0's ns per episode of each batch. `work(i)` runs before
/// each barrier (the DAXPY chunk of participant i).
fn run_threads(kind: Kind, n: usize, samples: usize, batch: usize, warm: usize, work: Option<Arc<Daxpy>>) -> Vec<f64> {
    if kind == Kind::Gomp {
        return gomp(n, samples, batch, warm);
    }
    let ws = waiters(kind, n);
    let hs: Vec<_> = ws
        .into_iter()
        .enumerate()
        .map(|(i, mut w)| {
            let work = work.clone();
            std::thread::spawn(move || {
                pin(Mapping::Sequential, i, n);
                let step = |w: &mut Waiter| {
                    if let Some(d) = &work {
                        d.chunk(i, n);
                    }
                    w();
                };
                for _ in 0..warm {
                    step(&mut w);
                }
                let mut out = Vec::with_capacity(samples);
                for _ in 0..samples {
                    let t = Instant::now();
                    for _ in 0..batch {
                        step(&mut w);
                    }
                    out.push(t.elapsed().as_nanos() as f64 / batch as f64);
                }
                out
            })
        })
        .collect();
    let mut r = vec![];
    for (i, h) in hs.into_iter().enumerate() {
        let v = h.join().unwrap();
        if i == 0 {
            r = v;
        }
    }
    r
}

fn gomp_exe() -> &'static PathBuf {
    static EXE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    EXE.get_or_init(|| {
        let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/omp_barrier.c");
        let dir = std::env::temp_dir().join(format!("xmpc-fbs-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("omp_barrier");
        let target = std::env::consts::ARCH.to_string() + "-unknown-linux-gnu";
        let cc = cc::Build::new().target(&target).host(&target).opt_level(2).cargo_metadata(false).flag("-fopenmp").get_compiler();
        let mut cmd = cc.to_command();
        cmd.arg(&src).arg("-o").arg(&exe);
        let st = cmd.status().expect("C compiler for benches/omp_barrier.c");
        assert!(st.success(), "cc -fopenmp benches/omp_barrier.c failed");
        exe
    })
}

fn gomp(n: usize, samples: usize, batch: usize, warm: usize) -> Vec<f64> {
    let out = Command::new(gomp_exe()).args([n, samples, batch, warm].map(|x| x.to_string())).output().expect("omp_barrier");
    assert!(out.status.success(), "omp_barrier: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| l.trim().parse().unwrap()).collect()
}

// ---------------------------------------------------------------- DAXPY

/// A(i) = B(i) + s * C(i) over `len` elements split into `n` chunks.
struct Daxpy {
    a: Vec<UnsafeCell<f64>>,
    b: Vec<f64>,
    c: Vec<f64>,
}
// SAFETY: each participant writes only its own chunk of `a`.
unsafe impl Sync for Daxpy {}
unsafe impl Send for Daxpy {}

impl Daxpy {
    fn new(len: usize) -> Daxpy {
        Daxpy { a: (0..len).map(|_| UnsafeCell::new(0.0)).collect(), b: vec![1.0; len], c: vec![2.0; len] }
    }
    #[inline(never)]
    fn chunk(&self, i: usize, n: usize) {
        let len = self.b.len();
        let (lo, hi) = (len * i / n, len * (i + 1) / n);
        for j in lo..hi {
            // SAFETY: j is in this participant's chunk.
            unsafe { *self.a[j].get() = self.b[j] + 3.0 * self.c[j] };
        }
    }
}

// ---------------------------------------------------------------- system load

#[derive(Clone, Copy)]
struct Sys {
    load1: f64,
    busy: u64,
    at: Instant,
    own: f64,
}

fn sys() -> Sys {
    let load1 = std::fs::read_to_string("/proc/loadavg").ok().and_then(|s| s.split_whitespace().next()?.parse().ok()).unwrap_or(f64::NAN);
    let busy = std::fs::read_to_string("/proc/stat")
        .ok()
        .and_then(|s| {
            let l = s.lines().next()?.to_string();
            let v: Vec<u64> = l.split_whitespace().skip(1).filter_map(|x| x.parse().ok()).collect();
            // user nice system idle iowait irq softirq steal
            Some(v.iter().take(8).sum::<u64>() - v.get(3)? - v.get(4)?)
        })
        .unwrap_or(0);
    Sys { load1, busy, at: Instant::now(), own: own_cpu() }
}

/// CPU seconds of this process and its waited-for children.
fn own_cpu() -> f64 {
    let t = |who| {
        // SAFETY: plain query into a zeroed struct.
        let mut r: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(who, &mut r) };
        let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
        tv(r.ru_utime) + tv(r.ru_stime)
    };
    t(libc::RUSAGE_SELF) + t(libc::RUSAGE_CHILDREN)
}

/// Cores used by other processes between `a` and `b`.
fn foreign(a: Sys, b: Sys) -> f64 {
    // SAFETY: plain query.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    let wall = (b.at - a.at).as_secs_f64().max(1e-3);
    (((b.busy - a.busy) as f64 / hz) - (b.own - a.own)).max(0.0) / wall
}

// ---------------------------------------------------------------- the table

struct Row {
    label: String,
    kept: Vec<f64>,
    all: Vec<f64>,
    rounds: usize,
    kept_rounds: usize,
    loads: Vec<f64>,
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    if v.is_empty() {
        return f64::NAN;
    }
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn env(k: &str, d: f64) -> f64 {
    std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d)
}

type Case = (String, Box<dyn Fn() -> Vec<f64>>);

/// Runs every case once per round (order reversed every other round).
fn rounds(title: &str, cases: Vec<Case>, nrounds: usize, max_foreign: f64) -> Vec<Row> {
    let mut rows: Vec<Row> = cases.iter().map(|(l, _)| Row { label: l.clone(), kept: vec![], all: vec![], rounds: 0, kept_rounds: 0, loads: vec![] }).collect();
    eprintln!("== {title}");
    for r in 0..nrounds {
        let order: Vec<usize> = if r % 2 == 0 { (0..cases.len()).collect() } else { (0..cases.len()).rev().collect() };
        for i in order {
            let a = sys();
            let v = (cases[i].1)();
            let b = sys();
            let f = foreign(a, b);
            let row = &mut rows[i];
            row.rounds += 1;
            row.loads.extend([a.load1, b.load1]);
            row.all.extend(&v);
            let keep = f <= max_foreign;
            if keep {
                row.kept.extend(&v);
                row.kept_rounds += 1;
            }
            let mut m = v.clone();
            eprintln!(
                "  round {r} {:<34} median {:>10.1} ns  load {:.2}->{:.2}  other procs {:.2} cores {}",
                row.label,
                pct(&mut m, 0.5),
                a.load1,
                b.load1,
                f,
                if keep { "" } else { "(discarded)" }
            );
        }
    }
    rows
}

fn print(title: &str, rows: &mut [Row], base: &str) {
    println!("\n### {title}\n");
    println!("| variant | min (ns) | median (ns) | p99 (ns) | median / {base} | rounds kept | load avg (1 min) range |");
    println!("|---|---:|---:|---:|---:|---:|---|");
    let mut base_med = f64::NAN;
    let mut meds = vec![];
    for r in rows.iter_mut() {
        let loaded = r.kept.is_empty();
        let v = if loaded { &mut r.all } else { &mut r.kept };
        let med = pct(v, 0.5);
        if r.label.starts_with(base) && base_med.is_nan() {
            base_med = med;
        }
        meds.push(med);
    }
    for (r, med) in rows.iter_mut().zip(meds) {
        let loaded = r.kept.is_empty();
        let v = if loaded { &mut r.all } else { &mut r.kept };
        let (lo, hi) = r.loads.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        println!(
            "| {}{} | {:.1} | {:.1} | {:.1} | {:.2} | {}/{} | {:.2}–{:.2} |",
            r.label,
            if loaded { " LOADED" } else { "" },
            pct(v, 0.0),
            med,
            pct(v, 0.99),
            med / base_med,
            r.kept_rounds,
            r.rounds,
            lo,
            hi
        );
    }
}

fn table() {
    let nr = env("FBS_ROUNDS", 7.0) as usize;
    let samples = env("FBS_SAMPLES", 100.0) as usize;
    let batch = env("FBS_BATCH", 1000.0) as usize;
    let maxf = env("FBS_MAX_FOREIGN", 0.10);
    let cpus = std::thread::available_parallelism().map_or(1, |c| c.get());
    println!("# FBS thread barrier: {cpus} CPUs, {nr} rounds, {samples} samples x {batch} episodes per round and variant, rounds with > {maxf} cores used by other processes discarded");
    println!("# start: load average {}", std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim());
    let all = [Kind::Fbs, Kind::FbsPacked, Kind::Std, Kind::Hurdles, Kind::Spin, Kind::Pthread, Kind::Gomp];
    let case = |k: Kind, n: usize, s: usize, b: usize| -> Case { (format!("{} ({n} thr)", k.name()), Box::new(move || run_threads(k, n, s, b, b, None))) };

    let parts = std::env::var("FBS_PARTS").unwrap_or_else(|_| "2,3,4,daxpy".into());
    let part = |p: &str| parts.split(',').any(|x| x.trim() == p);
    if part("2") {
        let cases: Vec<Case> = all.iter().map(|&k| case(k, 2, samples, batch)).collect();
        let mut rows = rounds("2 threads", cases, nr, maxf);
        print("2 threads (headline)", &mut rows, "FBS (separate");
    }

    for n in [3, 4].into_iter().filter(|n| part(&n.to_string())) {
        // oversubscribed: fewer episodes (sleeping barriers cost µs, pure spin ones ms)
        let cases: Vec<Case> = all.iter().map(|&k| if k.pure_spin() { case(k, n, 5, 10) } else { case(k, n, samples / 4, batch / 10) }).collect();
        let mut rows = rounds(&format!("{n} threads on {cpus} CPUs"), cases, nr, maxf);
        print(&format!("{n} threads on {cpus} CPUs (oversubscribed when > {cpus})"), &mut rows, "FBS (separate");
    }

    if !part("daxpy") {
        return;
    }
    let mut cases: Vec<Case> = vec![];
    for len in [256usize, 1024, 4096, 32768] {
        for k in [Kind::Fbs, Kind::Std] {
            let d = Arc::new(Daxpy::new(len));
            let b = (batch * 256 / len).max(20);
            cases.push((format!("DAXPY len {len}, {} (2 thr)", k.name()), Box::new(move || run_threads(k, 2, samples / 2, b, b, Some(d.clone())))));
        }
    }
    let mut rows = rounds("DAXPY", cases, nr, maxf);
    println!("\n### DAXPY A(i)=B(i)+s*C(i), 2 threads, one barrier per step: ns per step\n");
    println!("| length | FBS median | std::sync::Barrier median | speed-up | rounds kept (FBS, std) |");
    println!("|---:|---:|---:|---:|---|");
    for p in rows.chunks_mut(2) {
        let m: Vec<f64> = p.iter_mut().map(|r| if r.kept.is_empty() { pct(&mut r.all, 0.5) } else { pct(&mut r.kept, 0.5) }).collect();
        let len = p[0].label.split_whitespace().nth(2).unwrap_or("?").trim_end_matches(',');
        println!("| {len} | {:.1} | {:.1} | {:.2}x | {}/{}, {}/{} |", m[0], m[1], m[1] / m[0], p[0].kept_rounds, p[0].rounds, p[1].kept_rounds, p[1].rounds);
    }
    println!("\n# end: load average {}", std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim());
}

// ---------------------------------------------------------------- criterion

fn total(kind: Kind, n: usize, iters: u64) -> Duration {
    let ns = run_threads(kind, n, 1, iters as usize, 1000, None);
    Duration::from_nanos((ns[0] * iters as f64) as u64)
}

fn main() {
    if std::env::var("FBS_BENCH").as_deref() != Ok("table") {
        let mut c =
            Criterion::default().warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1)).sample_size(20).configure_from_args();
        let mut g = c.benchmark_group("barrier-2-threads");
        for k in [Kind::Fbs, Kind::FbsPacked, Kind::Std, Kind::Hurdles, Kind::Spin, Kind::Pthread] {
            g.bench_function(k.name(), |b| b.iter_custom(|iters| total(k, 2, iters)));
        }
        g.finish();
        c.final_summary();
    }
    table();
}
