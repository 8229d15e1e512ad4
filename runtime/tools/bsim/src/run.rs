//! `bsim_start`: called by the process `main` (csrc/bsim_main.c). Reads the run
//! parameters from the environment, runs every rank as a thread, writes outputs.

use crate::kernel::engine::{self, SimOpts};
use crate::kernel::model::{self, Platform};
use crate::kernel::{ctx, current, rank::Rank, sgplatform};
use crate::output::{self, RankResult};
use std::ffi::{c_char, c_int};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::Ordering::SeqCst;
use std::time::{Duration, Instant};

pub type CMain = unsafe extern "C" fn(c_int, *mut *mut c_char) -> c_int;
pub type FMain = unsafe extern "C" fn();

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|s| !s.is_empty())
}

fn env_flag(name: &str) -> bool {
    env(name).is_some_and(|v| v != "0" && v != "no" && v != "false")
}

/// Run parameters from the environment (set by `xmpc bsim run`).
pub struct Params {
    pub np: u32,
    pub platform: Platform,
    pub out: Option<PathBuf>,
    pub gantt: Option<PathBuf>,
    pub trace_json: Option<PathBuf>,
    /// BSIM_PAJE: a Paje trace (SimGrid, ViTE, PajeNG).
    pub paje: Option<PathBuf>,
    /// BSIM_OTF2: an OTF2 archive directory (Score-P, Vampir, otf2-print).
    pub otf2: Option<PathBuf>,
    pub trace_dir: Option<PathBuf>,
    pub payload: bool,
    pub stack: usize,
    pub quiet: bool,
    pub progress: bool,
    /// BSIM_BACKEND=mpi (only the main of libxmpc_bsim_mpi.a runs that one).
    pub mpi: bool,
    /// Ranks as user-level contexts (`contexts`, the default for C skeletons)
    /// rather than threads; None: not chosen (decided by the program's language).
    pub contexts: Option<bool>,
    /// BSIM_GUARD: guard pages below context stacks (None: when they fit).
    pub guard: Option<bool>,
    /// BSIM_STACK_STATS=1: print the stack pages the contexts touched.
    pub stack_stats: bool,
}

pub fn params_from_env() -> Result<Params, String> {
    let np = match env("BSIM_NP") {
        None => 1,
        Some(v) => v.parse::<u32>().ok().filter(|&n| n > 0).ok_or_else(|| format!("BSIM_NP={v}: expected a rank count >= 1"))?,
    };
    let mut platform = match env("BSIM_PLATFORM") {
        Some(p) if p.ends_with(".xml") => {
            // SMPI's description: the XML, the hostfile and the --cfg options
            let mut pl = sgplatform::load(&PathBuf::from(&p), env("BSIM_HOSTFILE").as_deref().map(std::path::Path::new), np as u64)?;
            let speed = 1e9 / pl.compute.factor;
            let cfgs: Vec<String> = env("BSIM_CFG").map(|c| c.lines().map(String::from).collect()).unwrap_or_default();
            sgplatform::apply_cfg(&mut pl, &cfgs, speed)?;
            pl
        }
        Some(p) => model::load_platform(&PathBuf::from(p))?,
        None => Platform::default(),
    };
    match env("BSIM_HOST_TIME").as_deref() {
        None => {}
        Some("1") => platform.compute.host = true,
        Some("0") => platform.compute.host = false,
        Some(v) => return Err(format!("BSIM_HOST_TIME={v}: expected 0 or 1")),
    }
    if let Some(n) = env("BSIM_NETWORK") {
        platform.nsim = model::parse_network_arg(&n)?;
    }
    let (mpi, contexts) = match env("BSIM_BACKEND").as_deref() {
        None => (false, None),
        Some("contexts") => (false, Some(true)),
        Some("threads") => (false, Some(false)),
        Some("mpi") => (true, Some(false)),
        Some(b) => return Err(format!("BSIM_BACKEND={b}: expected `contexts`, `threads` or `mpi`")),
    };
    if mpi && platform.nsim.is_some() {
        // NSIM needs every send in virtual-time order in one process
        return Err("the NSIM network model needs the threads back end (BSIM_BACKEND=threads)".into());
    }
    let stack = match env("BSIM_STACK_KB") {
        // chosen with the back end (choose_backend)
        None => 0,
        Some(v) => {
            v.parse::<usize>().ok().filter(|&k| (16..=1 << 20).contains(&k)).ok_or_else(|| format!("BSIM_STACK_KB={v}: expected KiB from 16 to 1048576"))?
                * 1024
        }
    };
    let guard = match env("BSIM_GUARD").as_deref() {
        None => None,
        Some("1") => Some(true),
        Some("0") => Some(false),
        Some(g) => return Err(format!("BSIM_GUARD={g}: expected 0 or 1")),
    };
    Ok(Params {
        np,
        platform,
        out: env("BSIM_OUT").map(PathBuf::from),
        gantt: env("BSIM_GANTT").map(PathBuf::from),
        trace_json: env("BSIM_TRACE_JSON").map(PathBuf::from),
        paje: env("BSIM_PAJE").map(PathBuf::from),
        otf2: env("BSIM_OTF2").map(PathBuf::from),
        trace_dir: env("BSIM_TRACE").map(PathBuf::from),
        payload: env_flag("BSIM_PAYLOAD"),
        stack,
        quiet: env_flag("BSIM_QUIET"),
        progress: env("BSIM_PROGRESS").map_or(std::io::stderr().is_terminal(), |v| v != "0"),
        mpi,
        contexts,
        guard,
        stack_stats: env_flag("BSIM_STACK_STATS"),
    })
}

/// Called by the process main (csrc/bsim_main.c) with `__start_bsim_rank` and
/// `__stop_bsim_rank` (null when the program has no per-rank variable).
#[no_mangle]
pub extern "C" fn bsim_rank_section(start: *mut c_char, stop: *mut c_char) {
    ctx::set_rank_section(start, stop)
}

struct SendPtr(usize);
unsafe impl Send for SendPtr {}

/// # Safety
/// `argv` must be the process arguments; `cmain`/`fmain` the skeleton's entry points.
#[no_mangle]
pub unsafe extern "C" fn bsim_start(argc: c_int, argv: *mut *mut c_char, cmain: Option<CMain>, fmain: Option<FMain>) -> c_int {
    let mut p = match params_from_env() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("bsim: {e}");
            return 2;
        }
    };
    if p.mpi {
        eprintln!("bsim: BSIM_BACKEND=mpi: this executable was linked for the threads back end only (libxmpc_bsim_main.a); link it with mpicc and libxmpc_bsim_mpi.a instead (docs/bsim.md)");
        return 2;
    }
    if cmain.is_none() && fmain.is_none() {
        eprintln!("bsim: the program defines neither bsim_main (C) nor bsim_main_f (Fortran): was it skeletonized?");
        return 2;
    }
    if let Err(e) = choose_backend(&mut p, cmain.is_some()) {
        eprintln!("bsim: {e}");
        return 2;
    }
    match run(&p, argc, argv, cmain, fmain) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("bsim: {e}");
            1
        }
    }
}

/// Contexts for C skeletons unless threads were asked for; Fortran skeletons keep
/// their variables `threadprivate`, so they run as threads. Per-rank variables
/// in section `bsim_rank` need contexts (threads would share them).
fn choose_backend(p: &mut Params, c: bool) -> Result<(), String> {
    let sec = ctx::rank_section_len();
    match p.contexts {
        None => p.contexts = Some(c),
        Some(true) if !c => return Err("BSIM_BACKEND=contexts: a Fortran skeleton keeps its module, COMMON and saved variables `threadprivate`, which contexts on one thread would share; use BSIM_BACKEND=threads".into()),
        Some(false) if sec > 0 && p.np > 1 => return Err(format!("BSIM_BACKEND=threads: the program keeps {sec} bytes of per-rank variables in section bsim_rank (BSIM_RANK_VAR), which threads would share; use the contexts back end, or compile the skeleton with -DBSIM_THREAD_LOCAL_VARS (then they are _Thread_local)")),
        _ => {}
    }
    if p.stack == 0 {
        // contexts: the pages a rank touches, in one region for every rank; threads:
        // Fortran skeletons keep big local arrays on the stack (-frecursive), and a
        // thread's stack is only reserved address space until touched
        p.stack = if p.contexts == Some(true) { DEFAULT_CONTEXT_STACK } else { DEFAULT_THREAD_STACK };
    }
    Ok(())
}

/// Stack of a rank running as a context, unless BSIM_STACK_KB says otherwise.
pub const DEFAULT_CONTEXT_STACK: usize = 256 << 10;
/// Stack of a rank running as a thread (reserved; committed as touched).
pub const DEFAULT_THREAD_STACK: usize = 64 << 20;

unsafe fn run(p: &Params, argc: c_int, argv: *mut *mut c_char, cmain: Option<CMain>, fmain: Option<FMain>) -> Result<c_int, String> {
    for d in [&p.out, &p.trace_dir].into_iter().flatten() {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: cannot create directory: {e}", d.display()))?;
    }
    let timeline = p.gantt.is_some() || p.trace_json.is_some() || p.paje.is_some() || p.otf2.is_some();
    let sim = engine::init_sim(p.np, p.platform.clone(), SimOpts { payload: p.payload, timeline, trace_dir: p.trace_dir.clone(), out_dir: p.out.clone() })?;
    let t0 = Instant::now();
    let bar = if p.progress && p.np > 1 { Some(progress_thread(p.np as u64)) } else { None };
    let (ranks, stack_use) = if p.contexts == Some(true) {
        crate::kernel::fault::install(p.stack);
        let o = ctx::CtxOpts { stack: p.stack, guard: p.guard, quiet: p.quiet };
        let av = argv as usize;
        let body: &'static ctx::RankBody =
            Box::leak(Box::new(move |r: u32, set: &dyn Fn(*mut Rank)| rank_body(r, sim, argc, av as *mut *mut c_char, cmain, fmain, set)));
        let (r, u) = ctx::run_all(sim, &o, body)?;
        (r, Some(u))
    } else {
        (run_threads(p, sim, argc, argv, cmain, fmain)?, None)
    };
    let mut results = Vec::with_capacity(ranks.len());
    let mut code = 0;
    for (c, r) in ranks {
        if c != 0 && code == 0 {
            code = c;
        }
        results.push(r);
    }
    if let Some((stop, t)) = bar {
        stop.store(true, SeqCst);
        let _ = t.join();
    }
    let host = t0.elapsed().as_secs_f64();
    let name = match &sim.plat.nsim {
        Some(n) => format!("{}, network nsim ({})", sim.plat.name, n.origin),
        None => sim.plat.name.clone(),
    };
    if let Some(net) = &sim.net {
        let n = engine::lock(net);
        if n.late.0 > 0 {
            eprintln!(
                "bsim: warning: nsim: {} message(s) reached the network after it had passed their send time (by up to {} ps); they were injected late",
                n.late.0, n.late.1
            );
        }
    }
    // every rank's trace file, all or none (crate::tracefile)
    crate::tracefile::commit_finished()?;
    write_outputs(p, &results, &name, if p.contexts == Some(true) { "contexts" } else { "threads" }, host)?;
    if let (Some(u), true) = (stack_use, p.stack_stats) {
        println!(
            "stack: {} KiB per rank at most, {:.1} KiB mean (pages touched; BSIM_STACK_KB = {}), per-rank variables {} B",
            u.max / 1024,
            u.sum as f64 / 1024.0 / p.np as f64,
            p.stack / 1024,
            ctx::rank_section_len()
        );
    }
    Ok(code)
}

/// One rank: its `Rank`, the program's main, its result. `set` receives the
/// rank's state before the main runs (the caller makes it current).
pub unsafe fn rank_body(
    id: u32,
    sim: &'static engine::Sim,
    argc: c_int,
    argv: *mut *mut c_char,
    cmain: Option<CMain>,
    fmain: Option<FMain>,
    set: &dyn Fn(*mut Rank),
) -> (c_int, RankResult) {
    let mut rank = Box::new(Rank::new(id, sim.n));
    set(&mut *rank);
    current::set(&mut *rank);
    let code = match (cmain, fmain) {
        (Some(f), _) => f(argc, argv),
        (None, Some(f)) => {
            f();
            0
        }
        _ => 0,
    };
    if let Some(t) = rank.finish_trace() {
        crate::tracefile::finished(t);
    }
    sim.finish(id);
    current::set(std::ptr::null_mut());
    let r = *rank;
    (code, RankResult { rank: id, end: r.clock, stats: r.stats, events: r.events, msgs: r.msgs })
}

/// Every rank as an OS thread (the `threads` back end).
unsafe fn run_threads(
    p: &Params,
    sim: &'static engine::Sim,
    argc: c_int,
    argv: *mut *mut c_char,
    cmain: Option<CMain>,
    fmain: Option<FMain>,
) -> Result<Vec<(c_int, RankResult)>, String> {
    let mut handles = Vec::with_capacity(p.np as usize);
    let stack = p.stack;
    for id in 0..p.np {
        let av = SendPtr(argv as usize);
        let h = std::thread::Builder::new()
            .name(format!("rank{id}"))
            .stack_size(p.stack)
            .spawn(move || {
                let av = av;
                crate::kernel::fault::install(stack);
                rank_body(id, sim, argc, av.0 as *mut *mut c_char, cmain, fmain, &|_| {})
            })
            .map_err(|e| {
                format!("cannot start rank {id} as a thread: {e} (try a smaller BSIM_STACK_KB or raise `ulimit -u`; the contexts back end has no such limit)")
            })?;
        handles.push(h);
    }
    let mut out = Vec::with_capacity(handles.len());
    for h in handles {
        match h.join() {
            Ok(r) => out.push(r),
            Err(_) => return Err("a rank thread panicked".into()),
        }
    }
    Ok(out)
}

/// Summary on stdout, report.json/txt, Gantt chart and Chrome trace (both back ends).
pub fn write_outputs(p: &Params, results: &[RankResult], platform: &str, backend: &str, host: f64) -> Result<(), String> {
    let rep = output::build_report(results, platform, backend, p.payload, host);
    if !p.quiet {
        print!("{}", output::summary(&rep));
    }
    if let Some(d) = &p.out {
        let json = serde_json::to_string_pretty(&rep).unwrap();
        xmpc_outfile::write(&d.join("report.json"), json.as_bytes())?;
        xmpc_outfile::write(&d.join("report.txt"), output::text_report(&rep).as_bytes())?;
    }
    if let Some(g) = &p.gantt {
        crate::gantt::write_gantt(g, results, rep.predicted_time)?;
    }
    if let Some(t) = &p.trace_json {
        xmpc_outfile::write(t, output::chrome_trace(results).as_bytes())?;
    }
    if let Some(t) = &p.paje {
        xmpc_outfile::write(t, crate::export::paje_trace(results, rep.predicted_time).as_bytes())?;
    }
    if let Some(d) = &p.otf2 {
        crate::export::write_otf2(d, results, rep.predicted_time)?;
    }
    Ok(())
}

/// What the progress display says: wall time, the virtual time the ranks have reached
/// (slowest..fastest published clock), LMPI calls per second of host time since the
/// last report, ranks finished.
fn progress_line(n: u64, wall: f64, calls: u64, rate: f64) -> String {
    let s = engine::sim();
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    // a finished rank publishes +inf: the ranks still running
    for t in (0..s.n).map(|r| s.published(r)).filter(|t| t.is_finite()) {
        lo = lo.min(t);
        hi = hi.max(t);
    }
    if !lo.is_finite() {
        (lo, hi) = (hi, hi);
    }
    format!("bsim {wall:.1} s: virtual time {lo:.6e} .. {hi:.6e} s, {calls} LMPI calls ({rate:.3e}/s), {}/{n} ranks finished", s.finished.load(SeqCst))
}

/// The progress display, after `BSIM_PROGRESS_AFTER_MS` (default 2000) of host time:
/// a status line on a terminal, a plain line every 2 s otherwise (logs; BSIM_PROGRESS=1).
fn progress_thread(n: u64) -> (std::sync::Arc<std::sync::atomic::AtomicBool>, std::thread::JoinHandle<()>) {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let s2 = stop.clone();
    let after = Duration::from_millis(env("BSIM_PROGRESS_AFTER_MS").and_then(|v| v.parse().ok()).unwrap_or(2000));
    let tty = std::io::stderr().is_terminal();
    let t = std::thread::spawn(move || {
        let start = Instant::now();
        let mut bar: Option<indicatif::ProgressBar> = None;
        let (mut last_t, mut last_calls) = (Instant::now(), 0u64);
        let mut last_line: Option<Instant> = None;
        while !s2.load(SeqCst) {
            std::thread::sleep(Duration::from_millis(100));
            if start.elapsed() < after {
                continue;
            }
            let every = if tty { Duration::from_millis(500) } else { Duration::from_secs(2) };
            if last_line.is_some_and(|l| l.elapsed() < every) {
                continue;
            }
            let s = engine::sim();
            let calls: u64 = s.ranks.iter().map(|r| r.calls.load(std::sync::atomic::Ordering::Relaxed)).sum();
            let dt = last_t.elapsed().as_secs_f64().max(1e-3);
            let rate = calls.saturating_sub(last_calls) as f64 / dt;
            (last_t, last_calls) = (Instant::now(), calls);
            last_line = Some(Instant::now());
            let line = progress_line(n, start.elapsed().as_secs_f64(), calls, rate);
            if tty {
                let b = bar.get_or_insert_with(|| {
                    let b = indicatif::ProgressBar::new_spinner();
                    b.set_style(indicatif::ProgressStyle::with_template("{spinner} {msg}").unwrap());
                    b
                });
                b.set_message(line);
                b.tick();
            } else {
                eprintln!("{line}");
            }
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
    });
    (stop, t)
}
