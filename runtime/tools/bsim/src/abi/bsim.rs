//! `BSIM_*`: what a skeleton tells BSIM besides MPI (compute time, blocks that
//! run in the skeleton, user events) and asks it (rank, virtual time, node).

use crate::kernel::current::{fail, with};
use std::ffi::{c_char, c_double, c_int, CStr};

#[no_mangle]
pub extern "C" fn BSIM_Add_time(t: c_double) {
    with("BSIM_Add_time", |r| r.add_time(t))
}

/// CPU time of the calling thread (a rank's host time: wall time would count the
/// time the rank's thread waits for a core among thousands).
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid timespec pointer; CLOCK_THREAD_CPUTIME_ID exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Start of a compute block without a time that runs in the skeleton
/// (`xmpc --skeletonize` wraps it in Begin/End): its host time is charged.
#[no_mangle]
pub extern "C" fn BSIM_Block_begin(id: c_int) {
    with("BSIM_Block_begin", |r| r.block = Some((id, thread_cpu_seconds())))
}

/// End of such a block: the thread CPU time since its begin advances the clock.
#[no_mangle]
pub extern "C" fn BSIM_Block_end(id: c_int) {
    with("BSIM_Block_end", |r| match r.block.take() {
        Some((b, t0)) if b == id => {
            let t = thread_cpu_seconds() - t0;
            r.add_time(t)
        }
        other => fail(
            r,
            "BSIM_Block_end",
            format!(
                "block {id} ends but {} (a jump out of a timed block?)",
                match other {
                    Some((b, _)) => format!("block {b} is the one running"),
                    None => "no block is running".into(),
                }
            ),
        ),
    })
}

#[no_mangle]
pub unsafe extern "C" fn BSIM_Event(name: *const c_char) {
    let n = if name.is_null() { "event".into() } else { CStr::from_ptr(name).to_string_lossy().into_owned() };
    with("BSIM_Event", |r| {
        r.trace_line(|| format!("event name={n}"));
        r.user_event(&n)
    })
}

#[no_mangle]
pub extern "C" fn BSIM_Rank() -> c_int {
    with("BSIM_Rank", |r| r.id as c_int)
}

/// Ranks of the world on the calling rank's node (the platform's `[nodes]`): the ranks
/// that share its memory bandwidth in PSIM's closed forms (`--model psim:`).
#[no_mangle]
pub extern "C" fn BSIM_Node_ranks() -> c_int {
    let id = with("BSIM_Node_ranks", |r| r.id) as u64;
    let s = crate::kernel::engine::sim();
    node_ranks(&s.plat.nodes, s.n as u64, id) as c_int
}

/// Ranks of `n` on `rank`'s node; a node map's counts are made once.
fn node_ranks(map: &crate::kernel::model::NodeMap, n: u64, rank: u64) -> u64 {
    use crate::kernel::model::NodeMap;
    static COUNTS: std::sync::OnceLock<std::collections::HashMap<u64, u64>> = std::sync::OnceLock::new();
    match map {
        NodeMap::Block(k) => {
            let k = (*k).max(1);
            k.min(n - rank / k * k)
        }
        NodeMap::List(_) => {
            let c = COUNTS.get_or_init(|| {
                let mut h = std::collections::HashMap::new();
                for r in 0..n {
                    *h.entry(map.node(r)).or_insert(0) += 1;
                }
                h
            });
            c.get(&map.node(rank)).copied().unwrap_or(1)
        }
    }
}

#[no_mangle]
pub extern "C" fn BSIM_Time() -> c_double {
    with("BSIM_Time", |r| r.clock)
}
