//! MGEN: run C programs written against an MPI-like API (`c/mgen.h`) on the
//! simulator.
//!
//! # Execution model
//! Every simulated rank runs `MGEN_Main` on its own OS thread with a small
//! stack (`NSIM_STACK_KB`, default 256 KiB; only touched pages cost memory,
//! so 8K ranks need a few hundred MB of address space but little RAM). The
//! engine and the rank threads pass a baton strictly: the engine resumes a
//! rank when the rank can run (at its virtual time) and waits until the rank
//! blocks (`MGEN_Wait*`, `MGEN_Recv`, collectives, `MGEN_Compute`) or returns.
//! Exactly one thread runs at any time, so runs are deterministic and the
//! messages are generated on line as virtual time advances (no trace files).
//!
//! Payloads are not transferred: only sizes, sources and tags matter; a
//! program must not depend on received values. Ranks are threads of one
//! process, so C globals are shared between ranks (as in SimGrid SMPI):
//! keep per-rank state in locals. MGEN programs run on the sequential engine.
//!
//! The `MGEN_*` functions are `unsafe extern "C"`: C callers must pass valid
//! pointers (as with MPI).
#![allow(clippy::missing_safety_doc)]

use crate::engine::{Block, Cx, Program, Req, Simulation, RESERVED_TAG};
use crate::Time;
use std::cell::RefCell;
use std::ffi::{c_char, c_int, CStr};
use std::sync::{Arc, Condvar, Mutex};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Turn {
    Rank,
    Engine(Block),
    Idle,
}

struct Baton {
    turn: Mutex<Turn>,
    cv: Condvar,
    /// `*mut Cx` of the step in progress (valid while the rank holds the baton).
    cx: Mutex<usize>,
}

thread_local! {
    static CUR: RefCell<Option<Arc<Baton>>> = const { RefCell::new(None) };
}

/// `int MGEN_Main(int argc, char **argv)`.
pub type MainFn = unsafe extern "C" fn(c_int, *mut *mut c_char) -> c_int;

struct Args {
    argv: Vec<std::ffi::CString>,
}

struct MgenRank {
    baton: Arc<Baton>,
    main: MainFn,
    args: Arc<Args>,
    stack: usize,
    started: bool,
}

impl Program for MgenRank {
    fn step(&mut self, cx: &mut Cx) -> Block {
        *self.baton.cx.lock().unwrap() = cx as *mut Cx as usize;
        if !self.started {
            self.started = true;
            let b = self.baton.clone();
            let main = self.main;
            let args = self.args.clone();
            std::thread::Builder::new()
                .name(format!("mgen-{}", cx.rank()))
                .stack_size(self.stack)
                .spawn(move || {
                    wait_turn(&b);
                    CUR.with(|c| *c.borrow_mut() = Some(b.clone()));
                    let mut ptrs: Vec<*mut c_char> = args.argv.iter().map(|a| a.as_ptr() as *mut c_char).collect();
                    ptrs.push(std::ptr::null_mut());
                    unsafe { main((ptrs.len() - 1) as c_int, ptrs.as_mut_ptr()) };
                    let mut t = b.turn.lock().unwrap();
                    *t = Turn::Engine(Block::Done);
                    b.cv.notify_all();
                })
                .expect("cannot spawn a rank thread (lower NSIM_STACK_KB or the rank count)");
        }
        let mut t = self.baton.turn.lock().unwrap();
        *t = Turn::Rank;
        self.baton.cv.notify_all();
        loop {
            if let Turn::Engine(b) = *t {
                *t = Turn::Idle;
                return b;
            }
            t = self.baton.cv.wait(t).unwrap();
        }
    }
}

fn wait_turn(b: &Baton) {
    let mut t = b.turn.lock().unwrap();
    while *t != Turn::Rank {
        t = b.cv.wait(t).unwrap();
    }
}

/// Run `f` with the current step's context (rank thread only).
fn with_cx<R>(f: impl FnOnce(&mut Cx) -> R) -> R {
    CUR.with(|c| {
        let b = c.borrow();
        let b = b.as_ref().expect("MGEN_* called outside a simulated rank");
        let p = *b.cx.lock().unwrap();
        // SAFETY: the engine is blocked inside `MgenRank::step` holding this Cx
        // alive until we hand the baton back; only this thread touches it.
        let cx = unsafe { &mut *(p as *mut Cx) };
        f(cx)
    })
}

/// Hand the baton back to the engine with `blk` and wait to be resumed.
fn block(blk: Block) {
    CUR.with(|c| {
        let b = c.borrow();
        let b = b.as_ref().expect("MGEN_* called outside a simulated rank");
        let mut t = b.turn.lock().unwrap();
        *t = Turn::Engine(blk);
        b.cv.notify_all();
        while *t != Turn::Rank {
            t = b.cv.wait(t).unwrap();
        }
    })
}

fn wait_reqs(reqs: &[Req]) {
    with_cx(|cx| {
        for &r in reqs {
            cx.wait(r);
        }
    });
    block(Block::Wait);
}

// ---------------------------------------------------------------------------
// C ABI

pub const MGEN_SUCCESS: c_int = 0;
pub const MGEN_ANY_SOURCE: c_int = -1;
pub const MGEN_ANY_TAG: c_int = -1;
pub const MGEN_REQUEST_NULL: c_int = -1;

/// `MGEN_Status` (layout shared with `mgen.h`).
#[repr(C)]
pub struct MgenStatus {
    pub source: c_int,
    pub tag: c_int,
    pub error: c_int,
    pub count: c_int,
}

fn bytes(count: c_int, dt: c_int) -> u64 {
    (count.max(0) as u64) * (dt.max(0) as u64)
}

fn set_status(st: *mut MgenStatus, src: u32, tag: i32) {
    if !st.is_null() {
        unsafe {
            (*st).source = src as c_int;
            (*st).tag = tag;
            (*st).error = 0;
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn MGEN_Init(_argc: *mut c_int, _argv: *mut *mut *mut c_char) -> c_int {
    MGEN_SUCCESS
}
#[no_mangle]
pub unsafe extern "C" fn MGEN_Finalize() -> c_int {
    MGEN_SUCCESS
}
#[no_mangle]
pub unsafe extern "C" fn MGEN_Comm_rank(_comm: c_int, rank: *mut c_int) -> c_int {
    let r = with_cx(|cx| cx.rank());
    unsafe { *rank = r as c_int };
    MGEN_SUCCESS
}
#[no_mangle]
pub unsafe extern "C" fn MGEN_Comm_size(_comm: c_int, size: *mut c_int) -> c_int {
    let r = with_cx(|cx| cx.size());
    unsafe { *size = r as c_int };
    MGEN_SUCCESS
}
/// Virtual time of the calling rank, in seconds.
#[no_mangle]
pub unsafe extern "C" fn MGEN_Wtime() -> f64 {
    with_cx(|cx| cx.now()) as f64 / 1e12
}
/// Model `seconds` of computation (advances the rank's virtual clock).
#[no_mangle]
pub unsafe extern "C" fn MGEN_Compute(seconds: f64) -> c_int {
    let ps = (seconds * 1e12).round().max(0.0) as Time;
    if ps > 0 {
        block(Block::Sleep(ps));
    }
    MGEN_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn MGEN_Isend(_buf: *const std::ffi::c_void, count: c_int, dt: c_int, dst: c_int, tag: c_int, _comm: c_int, req: *mut c_int) -> c_int {
    let q = with_cx(|cx| cx.isend(dst as u32, tag, bytes(count, dt)));
    unsafe { *req = q as c_int };
    MGEN_SUCCESS
}
#[no_mangle]
pub unsafe extern "C" fn MGEN_Irecv(_buf: *mut std::ffi::c_void, count: c_int, dt: c_int, src: c_int, tag: c_int, _comm: c_int, req: *mut c_int) -> c_int {
    let s = if src < 0 { None } else { Some(src as u32) };
    let t = if tag < 0 { None } else { Some(tag) };
    let q = with_cx(|cx| cx.irecv(s, t, bytes(count, dt)));
    unsafe { *req = q as c_int };
    MGEN_SUCCESS
}
#[no_mangle]
pub unsafe extern "C" fn MGEN_Wait(req: *mut c_int, st: *mut MgenStatus) -> c_int {
    let q = unsafe { *req };
    if q < 0 {
        return MGEN_SUCCESS;
    }
    wait_reqs(&[q as Req]);
    let (s, t) = with_cx(|cx| cx.status(q as Req));
    set_status(st, s, t);
    unsafe { *req = MGEN_REQUEST_NULL };
    MGEN_SUCCESS
}
#[no_mangle]
pub unsafe extern "C" fn MGEN_Waitall(n: c_int, reqs: *mut c_int, sts: *mut MgenStatus) -> c_int {
    let rs = unsafe { std::slice::from_raw_parts_mut(reqs, n.max(0) as usize) };
    let live: Vec<Req> = rs.iter().filter(|&&q| q >= 0).map(|&q| q as Req).collect();
    if !live.is_empty() {
        wait_reqs(&live);
    }
    for (i, q) in rs.iter_mut().enumerate() {
        if *q >= 0 && !sts.is_null() {
            let (s, t) = with_cx(|cx| cx.status(*q as Req));
            set_status(unsafe { sts.add(i) }, s, t);
        }
        *q = MGEN_REQUEST_NULL;
    }
    MGEN_SUCCESS
}
#[no_mangle]
pub unsafe extern "C" fn MGEN_Send(buf: *const std::ffi::c_void, count: c_int, dt: c_int, dst: c_int, tag: c_int, comm: c_int) -> c_int {
    let mut q = 0;
    MGEN_Isend(buf, count, dt, dst, tag, comm, &mut q);
    MGEN_Wait(&mut q, std::ptr::null_mut())
}
#[no_mangle]
pub unsafe extern "C" fn MGEN_Recv(buf: *mut std::ffi::c_void, count: c_int, dt: c_int, src: c_int, tag: c_int, comm: c_int, st: *mut MgenStatus) -> c_int {
    let mut q = 0;
    MGEN_Irecv(buf, count, dt, src, tag, comm, &mut q);
    MGEN_Wait(&mut q, st)
}
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn MGEN_Sendrecv(
    _sbuf: *const std::ffi::c_void,
    scount: c_int,
    sdt: c_int,
    dst: c_int,
    stag: c_int,
    _rbuf: *mut std::ffi::c_void,
    rcount: c_int,
    rdt: c_int,
    src: c_int,
    rtag: c_int,
    _comm: c_int,
    st: *mut MgenStatus,
) -> c_int {
    let s = if src < 0 { None } else { Some(src as u32) };
    let t = if rtag < 0 { None } else { Some(rtag) };
    let (a, b) = with_cx(|cx| (cx.irecv(s, t, bytes(rcount, rdt)), cx.isend(dst as u32, stag, bytes(scount, sdt))));
    wait_reqs(&[a, b]);
    let (s, t) = with_cx(|cx| cx.status(a));
    set_status(st, s, t);
    MGEN_SUCCESS
}

// Collectives: point-to-point algorithms on reserved tags.
const T_BARRIER: i32 = RESERVED_TAG;
const T_BCAST: i32 = RESERVED_TAG + 1;
const T_REDUCE: i32 = RESERVED_TAG + 2;
const T_ALLRED: i32 = RESERVED_TAG + 3;
const T_A2A: i32 = RESERVED_TAG + 4;
const T_AGATHER: i32 = RESERVED_TAG + 5;

fn rank_size() -> (u32, u32) {
    with_cx(|cx| (cx.rank(), cx.size()))
}
fn exchange(send: Option<(u32, u64)>, recv: Option<u32>, tag: i32, rbytes: u64) {
    let reqs = with_cx(|cx| {
        let mut v = Vec::new();
        if let Some(s) = recv {
            v.push(cx.irecv(Some(s), Some(tag), rbytes));
        }
        if let Some((d, b)) = send {
            v.push(cx.isend(d, tag, b));
        }
        v
    });
    if !reqs.is_empty() {
        wait_reqs(&reqs);
    }
}

/// Dissemination barrier.
#[no_mangle]
pub unsafe extern "C" fn MGEN_Barrier(_comm: c_int) -> c_int {
    let (r, p) = rank_size();
    let mut k = 1;
    while k < p {
        exchange(Some(((r + k) % p, 0)), Some((r + p - k) % p), T_BARRIER, 0);
        k <<= 1;
    }
    MGEN_SUCCESS
}

fn bcast(b: u64, root: u32, tag: i32) {
    let (r, p) = rank_size();
    let vr = (r + p - root) % p;
    let mut mask = 1;
    while mask < p {
        if vr & mask != 0 {
            exchange(None, Some((vr - mask + root) % p), tag, b);
            break;
        }
        mask <<= 1;
    }
    mask >>= 1;
    let mut reqs = Vec::new();
    while mask > 0 {
        if vr + mask < p {
            let d = (vr + mask + root) % p;
            reqs.push(with_cx(|cx| cx.isend(d, tag, b)));
        }
        mask >>= 1;
    }
    if !reqs.is_empty() {
        wait_reqs(&reqs);
    }
}

/// Binomial-tree broadcast.
#[no_mangle]
pub unsafe extern "C" fn MGEN_Bcast(_buf: *mut std::ffi::c_void, count: c_int, dt: c_int, root: c_int, _comm: c_int) -> c_int {
    bcast(bytes(count, dt), root as u32, T_BCAST);
    MGEN_SUCCESS
}

fn reduce(b: u64, root: u32, tag: i32) {
    let (r, p) = rank_size();
    let vr = (r + p - root) % p;
    let mut mask = 1;
    while mask < p {
        if vr & mask != 0 {
            exchange(Some(((vr - mask + root) % p, b)), None, tag, 0);
            break;
        }
        if vr + mask < p {
            exchange(None, Some((vr + mask + root) % p), tag, b);
        }
        mask <<= 1;
    }
}

/// Binomial-tree reduce.
#[no_mangle]
pub unsafe extern "C" fn MGEN_Reduce(
    _s: *const std::ffi::c_void,
    _r: *mut std::ffi::c_void,
    count: c_int,
    dt: c_int,
    _op: c_int,
    root: c_int,
    _comm: c_int,
) -> c_int {
    reduce(bytes(count, dt), root as u32, T_REDUCE);
    MGEN_SUCCESS
}

/// Recursive-doubling allreduce (MPICH scheme for non powers of two).
#[no_mangle]
pub unsafe extern "C" fn MGEN_Allreduce(_s: *const std::ffi::c_void, _r: *mut std::ffi::c_void, count: c_int, dt: c_int, _op: c_int, _comm: c_int) -> c_int {
    let b = bytes(count, dt);
    let (r, p) = rank_size();
    let p2 = 1u32 << (31 - p.leading_zeros());
    let rem = p - p2;
    let newrank = if r < 2 * rem {
        if r.is_multiple_of(2) {
            exchange(Some((r + 1, b)), None, T_ALLRED, 0);
            None
        } else {
            exchange(None, Some(r - 1), T_ALLRED, b);
            Some(r / 2)
        }
    } else {
        Some(r - rem)
    };
    if let Some(nr) = newrank {
        let real = |x: u32| if x < rem { 2 * x + 1 } else { x + rem };
        let mut mask = 1;
        while mask < p2 {
            let partner = real(nr ^ mask);
            exchange(Some((partner, b)), Some(partner), T_ALLRED, b);
            mask <<= 1;
        }
    }
    if r < 2 * rem {
        if r.is_multiple_of(2) {
            exchange(None, Some(r + 1), T_ALLRED, b);
        } else {
            exchange(Some((r - 1, b)), None, T_ALLRED, 0);
        }
    }
    MGEN_SUCCESS
}

/// Pairwise-exchange all-to-all.
#[no_mangle]
pub unsafe extern "C" fn MGEN_Alltoall(
    _s: *const std::ffi::c_void,
    scount: c_int,
    sdt: c_int,
    _r: *mut std::ffi::c_void,
    rcount: c_int,
    rdt: c_int,
    _comm: c_int,
) -> c_int {
    let (r, p) = rank_size();
    let (sb, rb) = (bytes(scount, sdt), bytes(rcount, rdt));
    for i in 1..p {
        exchange(Some(((r + i) % p, sb)), Some((r + p - i) % p), T_A2A, rb);
    }
    MGEN_SUCCESS
}

/// Ring allgather.
#[no_mangle]
pub unsafe extern "C" fn MGEN_Allgather(
    _s: *const std::ffi::c_void,
    scount: c_int,
    sdt: c_int,
    _r: *mut std::ffi::c_void,
    rcount: c_int,
    rdt: c_int,
    _comm: c_int,
) -> c_int {
    let (r, p) = rank_size();
    let (sb, rb) = (bytes(scount, sdt), bytes(rcount, rdt));
    for _ in 1..p {
        exchange(Some(((r + 1) % p, sb)), Some((r + p - 1) % p), T_AGATHER, rb);
    }
    MGEN_SUCCESS
}

// ---------------------------------------------------------------------------
// Driver

/// Options of an MGEN run (from `--nsim-*` arguments or `NSIM_*` variables).
#[derive(Debug, Clone, Default)]
pub struct MgenOptions {
    pub config: String,
    pub ranks: u32,
    pub stack_kb: usize,
    pub json: Option<String>,
    pub quiet: bool,
}

/// Run `main` as an MGEN program; returns the simulation result.
pub fn run_program(cfg: &crate::Config, ranks: u32, stack_kb: usize, main: MainFn, argv: Vec<String>) -> Result<(crate::SimResult, crate::topo::Topo), String> {
    let args = Arc::new(Args { argv: argv.into_iter().map(|a| std::ffi::CString::new(a).unwrap_or_default()).collect() });
    let mut sim = Simulation::new(cfg, ranks, 1).map_err(|e| e.to_string())?;
    let topo = sim.topo().clone();
    let stack = stack_kb.max(64) * 1024;
    sim.set_programs(|_| {
        Box::new(MgenRank {
            baton: Arc::new(Baton { turn: Mutex::new(Turn::Idle), cv: Condvar::new(), cx: Mutex::new(0) }),
            main,
            args: args.clone(),
            stack,
            started: false,
        })
    });
    let r = sim.run()?;
    Ok((r, topo))
}

/// Entry point called by `mgen_main.c`'s `main` (with `MGEN_Main`): parses `--nsim-config=FILE`,
/// `--nsim-ranks=N`, `--nsim-stack-kb=K`, `--nsim-json=FILE`, `--nsim-quiet`
/// (or `NSIM_CONFIG`, `NSIM_RANKS`, `NSIM_STACK_KB`, `NSIM_JSON`), runs
/// `MGEN_Main` on every rank, and prints the report.
///
/// # Safety
/// `argv` must hold `argc` valid C strings.
#[no_mangle]
pub unsafe extern "C" fn mgen_run(argc: c_int, argv: *const *const c_char, main: Option<MainFn>) -> c_int {
    let Some(main) = main else {
        eprintln!("mgen: no MGEN_Main");
        return 2;
    };
    let mut args: Vec<String> = (0..argc as usize).map(|i| CStr::from_ptr(*argv.add(i)).to_string_lossy().into_owned()).collect();
    let env = |k: &str| std::env::var(k).ok();
    let mut o = MgenOptions {
        config: env("NSIM_CONFIG").unwrap_or_default(),
        ranks: env("NSIM_RANKS").and_then(|v| v.parse().ok()).unwrap_or(0),
        stack_kb: env("NSIM_STACK_KB").and_then(|v| v.parse().ok()).unwrap_or(256),
        json: env("NSIM_JSON"),
        quiet: false,
    };
    args.retain(|a| {
        if let Some(v) = a.strip_prefix("--nsim-config=") {
            o.config = v.into();
        } else if let Some(v) = a.strip_prefix("--nsim-ranks=") {
            o.ranks = v.parse().unwrap_or(0);
        } else if let Some(v) = a.strip_prefix("--nsim-stack-kb=") {
            o.stack_kb = v.parse().unwrap_or(256);
        } else if let Some(v) = a.strip_prefix("--nsim-json=") {
            o.json = Some(v.into());
        } else if a == "--nsim-quiet" {
            o.quiet = true;
        } else {
            return true;
        }
        false
    });
    if o.config.is_empty() {
        eprintln!("mgen: no interconnect configuration (--nsim-config=FILE or NSIM_CONFIG)");
        return 2;
    }
    let cfg = match crate::Config::from_file(o.config.as_ref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("mgen: {e}");
            return 2;
        }
    };
    let ranks = if o.ranks == 0 { cfg.num_nodes() } else { o.ranks };
    match run_program(&cfg, ranks, o.stack_kb, main, args) {
        Ok((r, topo)) => {
            let rep = crate::report::Report::new(&r, &topo);
            if !o.quiet {
                eprint!("{}", rep.summary());
            }
            println!("MGEN run time: {:.9} s ({} ps)", rep.runtime_s, rep.runtime_ps);
            if let Some(j) = o.json {
                if let Err(e) = std::fs::write(&j, rep.to_json()) {
                    eprintln!("mgen: {j}: {e}");
                    return 1;
                }
            }
            0
        }
        Err(e) => {
            eprintln!("mgen: {e}");
            1
        }
    }
}
