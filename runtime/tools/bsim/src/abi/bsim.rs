//! `BSIM_*`: what a skeleton tells BSIM besides MPI (compute time, blocks that
//! run in the skeleton, user events) and asks it (rank, virtual time, node).

use crate::kernel::current::{fail, with};
use std::ffi::{c_char, c_double, c_int, CStr};

/// `t` seconds of compute (a block commented out of the skeleton); the host
/// time spent since the last call stays in the burst charged at the next MPI call.
#[no_mangle]
pub extern "C" fn BSIM_Add_time(t: c_double) {
    with("BSIM_Add_time", |r| {
        r.accrue_host();
        r.add_time(t);
        r.host_resume();
    })
}

/// Start of a compute block without a time that runs in the skeleton
/// (`xmpc --skeletonize` wraps it in Begin/End): its host time is charged.
#[no_mangle]
pub extern "C" fn BSIM_Block_begin(id: c_int) {
    with("BSIM_Block_begin", |r| {
        r.block_begin(id);
        r.host_resume();
    })
}

/// End of such a block (blocks nest across calls and files).
#[no_mangle]
pub extern "C" fn BSIM_Block_end(id: c_int) {
    with("BSIM_Block_end", |r| {
        if let Err(e) = r.block_end(id) {
            fail(r, "BSIM_Block_end", e);
        }
        r.host_resume();
    })
}

/// The next LMPI call moves message data even without payload mode: `flags`
/// 1: the call's send buffer holds data the receivers use, 2: its receive
/// buffer takes the data (the skeletonizer marks calls whose messages decide
/// control flow or feed code that runs in the skeleton).
#[no_mangle]
pub extern "C" fn BSIM_Carry(flags: c_int) {
    with("BSIM_Carry", |r| r.carry = (flags & 3) as u8)
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
    with("BSIM_Time", |r| {
        r.charge_host();
        let t = r.clock;
        r.host_resume();
        t
    })
}
