//! The entry points the C shim calls: init (config, timer, calibration),
//! the record functions, finalize (collect to rank 0, write) and the crash
//! dump.

use crate::acc::{self, with_table, CALIB_FID};
use crate::config::{Config, TimerChoice};
use crate::funcs::FUNCS;
use std::os::raw::{c_char, c_int};
use std::path::PathBuf;
use std::sync::Mutex;
use xmpc_prof_report::{Profile, RankProfile, TimerInfo, FORMAT};

extern "C" {
    static mut xp_use_tsc: c_int;
    static mut xp_on: [u8; acc::NF];
    fn xmpc_prof_now() -> u64;
    fn xmpc_prof_monotonic_ns() -> u64;
    fn xmpc_prof_translate(key: usize, out: *mut c_int, n: c_int) -> c_int;
    fn xmpc_prof_gather_lens(len: c_int, lens: *mut c_int) -> c_int;
    fn xmpc_prof_gatherv(buf: *const c_char, len: c_int, out: *mut c_char, lens: *const c_int, displs: *const c_int) -> c_int;
    fn xmpc_prof_library_version(buf: *mut c_char, cap: c_int) -> c_int;
    fn xmpc_prof_install_handlers(want: c_int);
    fn xmpc_prof_shim_anchor() -> c_int;
}

struct State {
    cfg: Config,
    rank: i32,
    size: i32,
    timer: TimerInfo,
    t_init: u64,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

fn translate(key: usize, out: &mut Vec<i32>) -> bool {
    // SAFETY: PMPI calls on a valid communicator handle (the key came from
    // a live call); sizes are checked.
    unsafe {
        let n = xmpc_prof_translate(key, std::ptr::null_mut(), 0);
        if n <= 0 {
            return false;
        }
        out.resize(n as usize, -1);
        xmpc_prof_translate(key, out.as_mut_ptr(), n) == n
    }
}

fn tsc_invariant() -> bool {
    if !cfg!(any(target_arch = "x86_64", target_arch = "x86")) {
        return false;
    }
    let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else {
        return false;
    };
    let flags = info.lines().find(|l| l.starts_with("flags")).unwrap_or("");
    let has = |f: &str| flags.split_whitespace().any(|x| x == f);
    has("constant_tsc") && has("nonstop_tsc")
}

/// Ticks per ns of the TSC, against CLOCK_MONOTONIC over ~20 ms.
fn calibrate_tsc() -> f64 {
    // SAFETY: plain timer reads.
    unsafe {
        let (m0, t0) = (xmpc_prof_monotonic_ns(), xmpc_prof_now());
        let mut m1 = m0;
        while m1 - m0 < 20_000_000 {
            m1 = xmpc_prof_monotonic_ns();
        }
        let t1 = xmpc_prof_now();
        (t1 - t0) as f64 / (m1 - m0) as f64
    }
}

/// Median timer-pair cost and mean record cost, in ticks.
fn calibrate_overhead(pairs: u64, world_key: usize) -> (f64, f64) {
    let n = pairs as usize;
    let mut d = Vec::with_capacity(n);
    // SAFETY: timer reads.
    unsafe {
        for _ in 0..n {
            let a = xmpc_prof_now();
            let b = xmpc_prof_now();
            d.push(b - a);
        }
    }
    d.sort_unstable();
    let pair = d[n / 2] as f64;
    // SAFETY: timer reads; the record goes to the calibration slot.
    let t0 = unsafe { xmpc_prof_now() };
    for i in 0..n {
        with_table(|t| t.rec_p(CALIB_FID, 100 + i as u64, 64, 0, -1, -2, world_key));
    }
    let t1 = unsafe { xmpc_prof_now() };
    let rec = (t1 - t0) as f64 / n as f64;
    acc::reset_all();
    (pair, rec)
}

fn init(rank: c_int, size: c_int, world: usize) {
    // SAFETY: reference keeps the shim object linked.
    unsafe { xmpc_prof_shim_anchor() };
    let cfg = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            if rank == 0 {
                eprintln!("xmpc-prof: error: {e}; profiling disabled for this run");
            }
            return;
        }
    };
    let use_tsc = match cfg.timer {
        TimerChoice::Auto => tsc_invariant(),
        TimerChoice::Tsc => cfg!(any(target_arch = "x86_64", target_arch = "x86")),
        TimerChoice::ClockGettime => false,
    };
    // SAFETY: written before any wrapper records (xp_on is still all 0).
    unsafe { xp_use_tsc = use_tsc as c_int };
    let tpn = if use_tsc { calibrate_tsc() } else { 1.0 };
    acc::configure(world, size.max(1) as usize, cfg.peers, Some(translate));
    let (pair, rec) = calibrate_overhead(cfg.calibration_pairs, world);
    let timer = TimerInfo {
        source: if use_tsc { "tsc".into() } else { "clock_gettime".into() },
        ticks_per_ns: tpn,
        calibration_pairs: cfg.calibration_pairs,
        timer_pair_ns: pair / tpn,
        record_ns: rec / tpn,
        overhead_ns: (pair + rec) / tpn,
    };
    acc::set_short_limit((cfg.unreliable_factor * (pair + rec)) as u64);
    // SAFETY: single-threaded at init; the handlers only read state.
    unsafe {
        xmpc_prof_install_handlers(cfg.crash_handlers as c_int);
        let on = &mut *std::ptr::addr_of_mut!(xp_on);
        for (i, name) in FUNCS.iter().enumerate() {
            on[i] = cfg.enabled(name) as u8;
        }
    }
    let t_init = unsafe { xmpc_prof_now() };
    *STATE.lock().unwrap_or_else(|e| e.into_inner()) = Some(State { cfg, rank, size, timer, t_init });
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname").map(|s| s.trim().to_string()).unwrap_or_default()
}

fn command() -> String {
    std::fs::read("/proc/self/cmdline")
        .map(|b| b.split(|&c| c == 0).filter(|s| !s.is_empty()).map(|s| String::from_utf8_lossy(s).into_owned()).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn rank_profile(st: &State, partial: bool) -> RankProfile {
    // SAFETY: timer read.
    let now = unsafe { xmpc_prof_now() };
    let tab = acc::merged();
    let (functions, peers) = tab.to_stats(st.timer.ticks_per_ns);
    // a crash handler does not resolve addresses (it allocates and reads DWARF)
    let callsites = if partial { Vec::new() } else { crate::sites::resolve(&tab.sites, st.timer.ticks_per_ns) };
    let mpi_ns = functions.iter().map(|f| f.time_total_ns).sum();
    RankProfile {
        rank: st.rank as i64,
        host: hostname(),
        pid: std::process::id(),
        wall_ns: now.saturating_sub(st.t_init) as f64 / st.timer.ticks_per_ns,
        mpi_ns,
        partial,
        functions,
        peers,
        callsites,
    }
}

fn out_path(cfg: &Config, suffix: &str) -> PathBuf {
    PathBuf::from(&cfg.output_dir).join(format!("{}{}", cfg.output_name, suffix))
}

fn library_version() -> String {
    let mut buf = vec![0u8; 8192];
    // SAFETY: buffer of the given capacity.
    let n = unsafe { xmpc_prof_library_version(buf.as_mut_ptr() as *mut c_char, buf.len() as c_int) };
    let s = String::from_utf8_lossy(&buf[..n.max(0) as usize]).into_owned();
    s.lines().next().unwrap_or("").trim().to_string()
}

fn finalize() {
    let guard = STATE.lock().unwrap_or_else(|e| e.into_inner());
    let Some(st) = guard.as_ref() else { return };
    let rp = rank_profile(st, false);
    let bytes = serde_json::to_vec(&rp).unwrap_or_default();
    let n = st.size.max(1) as usize;
    let mut lens = vec![0 as c_int; n];
    // SAFETY: every rank calls both collectives with buffers of the sizes
    // MPI_Gather(v) needs (lens/out only significant at rank 0).
    unsafe {
        xmpc_prof_gather_lens(bytes.len() as c_int, lens.as_mut_ptr());
    }
    let mut displs = vec![0 as c_int; n];
    let mut total = 0usize;
    if st.rank == 0 {
        for i in 0..n {
            displs[i] = total as c_int;
            total += lens[i].max(0) as usize;
        }
    }
    let mut all = vec![0u8; total.max(1)];
    unsafe {
        xmpc_prof_gatherv(bytes.as_ptr() as *const c_char, bytes.len() as c_int, all.as_mut_ptr() as *mut c_char, lens.as_ptr(), displs.as_ptr());
    }
    if st.rank != 0 {
        return;
    }
    let mut ranks = Vec::with_capacity(n);
    for i in 0..n {
        let s = displs[i] as usize;
        let e = s + lens[i].max(0) as usize;
        match serde_json::from_slice::<RankProfile>(&all[s..e]) {
            Ok(r) => ranks.push(r),
            Err(err) => eprintln!("xmpc-prof: rank {i} sent an unreadable profile: {err}"),
        }
    }
    ranks.sort_by_key(|r| r.rank);
    let mut prof = Profile {
        format: FORMAT.into(),
        mpi_library: library_version(),
        command: command(),
        world_size: st.size as i64,
        timer: st.timer.clone(),
        unreliable_factor: st.cfg.unreliable_factor,
        ranks,
        summary: Vec::new(),
    };
    prof.summarize();
    if let Err(e) = write_profile(&st.cfg, &prof) {
        // reported, never a crash: the program's own exit status is kept
        eprintln!("xmpc-prof: rank {}: profile not written: {e}", st.rank);
    }
}

/// The profile (JSON and text) under the output policy of every xmpc tool
/// (docs/diagnostics.md, `xmpc-outfile`): each file written beside its target and
/// renamed into place, both or neither; a target that is a symbolic link, FIFO, device
/// or directory is refused, never written through.
fn write_profile(cfg: &Config, prof: &Profile) -> Result<(), String> {
    std::fs::create_dir_all(&cfg.output_dir).map_err(|e| format!("{}: {e}", cfg.output_dir))?;
    let json = out_path(cfg, ".json");
    let text = serde_json::to_string_pretty(prof).map_err(|e| e.to_string())?;
    let txt = out_path(cfg, ".txt");
    let report = xmpc_prof_report::text::render(prof, 30);
    xmpc_outfile::write_all(&[(json.clone(), text.into_bytes()), (txt.clone(), report.into_bytes())])?;
    eprintln!("xmpc-prof: wrote {} and {}", json.display(), txt.display());
    Ok(())
}

/// Crash / abort / exit-without-finalize: this rank's partial profile.
fn partial(sig: c_int) {
    // try_lock: never block inside a signal handler
    let Ok(guard) = STATE.try_lock() else { return };
    let Some(st) = guard.as_ref() else { return };
    let rp = rank_profile(st, true);
    let prof = Profile {
        format: FORMAT.into(),
        mpi_library: String::new(),
        command: command(),
        world_size: st.size as i64,
        timer: st.timer.clone(),
        unreliable_factor: st.cfg.unreliable_factor,
        ranks: vec![rp],
        summary: Vec::new(),
    };
    let path = out_path(&st.cfg, &format!(".rank{}.partial.json", st.rank));
    let _ = std::fs::create_dir_all(&st.cfg.output_dir);
    // Written under a temporary name beside it and renamed (the output policy,
    // write_profile): the launcher may kill this rank mid-write, and a reader must
    // never see half a file; a link or device there is refused, not written through.
    if let Ok(text) = serde_json::to_string_pretty(&prof) {
        let why = match sig {
            0 => "exit without MPI_Finalize".to_string(),
            -1 => "MPI_Abort".to_string(),
            s => format!("signal {s}"),
        };
        match xmpc_outfile::write(&path, text.as_bytes()) {
            Ok(()) => eprintln!("xmpc-prof: {why}: wrote partial profile {}", path.display()),
            Err(e) => eprintln!("xmpc-prof: rank {}: {why}: partial profile not written: {e}", st.rank),
        }
    }
}

// ---- C ABI --------------------------------------------------------------

fn guarded(f: impl FnOnce() + std::panic::UnwindSafe) {
    let _ = std::panic::catch_unwind(f);
}

#[no_mangle]
pub extern "C" fn xp_rust_init(rank: c_int, size: c_int, world: usize) {
    guarded(|| init(rank, size, world));
}

#[no_mangle]
pub extern "C" fn xp_rust_finalize() {
    guarded(finalize);
}

#[no_mangle]
pub extern "C" fn xp_rust_partial(sig: c_int) {
    guarded(|| partial(sig));
}

#[no_mangle]
pub extern "C" fn xp_comm_freed(_comm: usize) {
    acc::comm_freed();
}

/// Time-only record; `ra` is the call site (return address into the caller, 0 = unknown).
#[no_mangle]
pub extern "C" fn xp_rec(fid: c_int, dt: u64, ra: usize) {
    with_table(|t| {
        t.rec(fid as usize, dt);
        t.site(fid as usize, ra, dt, 0);
    });
}

/// Record with byte counts (-1 = not applicable).
#[no_mangle]
pub extern "C" fn xp_rec_b(fid: c_int, dt: u64, sbytes: i64, rbytes: i64, ra: usize) {
    with_table(|t| {
        t.rec_b(fid as usize, dt, sbytes, rbytes);
        t.site(fid as usize, ra, dt, (sbytes.max(0) + rbytes.max(0)) as u64);
    });
}

/// Point-to-point record with comm-local peers.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn xp_rec_p(fid: c_int, dt: u64, sbytes: i64, speer: c_int, rbytes: i64, rpeer: c_int, comm: usize, ra: usize) {
    with_table(|t| {
        t.rec_p(fid as usize, dt, sbytes, speer, rbytes, rpeer, comm);
        t.site(fid as usize, ra, dt, (sbytes.max(0) + rbytes.max(0)) as u64);
    });
}
