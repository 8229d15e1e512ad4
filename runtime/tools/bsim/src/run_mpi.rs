//! `bsim_start_mpi`: the process entry of the `mpi` back end, called by the C
//! main of libxmpc_bsim_mpi.a (csrc/bsim_mpi_main.c) after MPI_Init when
//! BSIM_BACKEND=mpi: this process runs one rank (kernel/mpi_backend.rs).

use crate::kernel::engine::{self, SimOpts};
use crate::kernel::mpi_backend::{self as mb, MpiOps};
use crate::kernel::{current, rank::Rank};
use crate::output::RankResult;
use crate::run::{self, CMain, FMain};
use std::ffi::{c_char, c_int};
use std::time::Instant;

/// Called by the C main of libxmpc_bsim_mpi.a after MPI_Init when BSIM_BACKEND=mpi.
///
/// # Safety
/// `argv` must be the process arguments, `ops` a filled table valid for the call.
#[no_mangle]
pub unsafe extern "C" fn bsim_start_mpi(argc: c_int, argv: *mut *mut c_char, cmain: Option<CMain>, fmain: Option<FMain>, ops: *const MpiOps) -> c_int {
    let ops = *ops;
    let (id, n) = (ops.rank as u32, ops.size as u32);
    let say = |e: String| {
        if id == 0 {
            eprintln!("bsim: {e}");
        }
    };
    let p = match run::params_from_env() {
        Ok(p) => p,
        Err(e) => {
            say(e);
            return 2;
        }
    };
    if std::env::var("BSIM_NP").is_ok_and(|v| !v.is_empty()) && p.np != n {
        say(format!("BSIM_NP={} but mpiexec started {n} processes", p.np));
        return 2;
    }
    if p.payload {
        say("payload mode (BSIM_PAYLOAD=1) needs the threads back end: the mpi back end moves only timestamps".into());
        return 2;
    }
    if cmain.is_none() && fmain.is_none() {
        say("the program defines neither bsim_main (C) nor bsim_main_f (Fortran): was it skeletonized?".into());
        return 2;
    }
    for d in [&p.out, &p.trace_dir].into_iter().flatten() {
        if let Err(e) = std::fs::create_dir_all(d) {
            say(format!("{}: cannot create directory: {e}", d.display()));
            return 2;
        }
    }
    let timeline = p.gantt.is_some() || p.trace_json.is_some() || p.paje.is_some() || p.otf2.is_some();
    let sim = match engine::init_sim(n, p.platform.clone(), SimOpts { payload: false, timeline, trace_dir: p.trace_dir.clone(), out_dir: p.out.clone() }) {
        Ok(s) => s,
        Err(e) => {
            say(e);
            return 2;
        }
    };
    mb::start(ops, id);
    let t0 = Instant::now();
    let mut rank = Box::new(Rank::new(id, n));
    current::set(&mut *rank);
    let code = match (cmain, fmain) {
        (Some(f), _) => f(argc, argv),
        (None, Some(f)) => {
            f();
            0
        }
        _ => 0,
    };
    current::set(std::ptr::null_mut());
    // this process's trace file (one rank per process: put in place by each)
    let mut code = code;
    if let Some(Err(e)) = rank.finish_trace().map(|t| crate::tracefile::commit_all(vec![t])) {
        eprintln!("bsim: {e}");
        code = if code == 0 { 1 } else { code };
    }
    // let the last headers and replies leave
    mb::flush_outgoing();
    let results = mb::gather(&ops, &rank, code, timeline);
    let Some(results) = results else { return code };
    let host = t0.elapsed().as_secs_f64();
    let first_bad = results.iter().map(|x| x.0).find(|&c| c != 0).unwrap_or(0);
    let res: Vec<RankResult> = results.into_iter().map(|x| x.1).collect();
    match run::write_outputs(&p, &res, &sim.plat.name, "mpi", host) {
        Ok(()) => first_bad,
        Err(e) => {
            eprintln!("bsim: {e}");
            1
        }
    }
}
