//! `XMPC_TCA_SUBCLUSTER=k`: XMP's `bcast` and `reduction` go through the
//! TCA/InfiniBand hybrid layer (`xmpc-tca`, docs/tca.md; TCA emulated over a
//! shared-memory window), and `reflect` sends the halos between neighbours of
//! one subcluster (shm.rs's grouping) through TCA descriptor chains built once
//! per plan (`xmpc_tca::halo`), except the contiguous ones above Omni's 256 KB,
//! which go over MPI as do the halos between subclusters. Unset (the default):
//! nothing changes. Results are bit for bit MPICH's (runtime/lib/tca/tests/mpi.rs),
//! so only speed differs.

use crate::err::{fatal, XmpcLoc};
use crate::ffi::Fint;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::c_int;
use std::rc::Rc;
use std::sync::OnceLock;
use xmpc_tca::rt::{capacity_from_env, subcluster_from_env, Hybrid};

fn config() -> &'static Result<Option<(usize, usize)>, String> {
    static C: OnceLock<Result<Option<(usize, usize)>, String>> = OnceLock::new();
    C.get_or_init(|| Ok(subcluster_from_env()?.map(|k| (k, capacity_from_env().unwrap_or(64 * 1024)))))
}

/// The subcluster size, or `None` when unset; a bad value is a located error.
pub fn subcluster(loc: *const XmpcLoc) -> Option<usize> {
    match config() {
        Ok(c) => c.map(|(k, _)| k),
        Err(e) => fatal(loc, e),
    }
}

/// Whether a subcluster is set (a bad value counts as unset here: the first
/// collective reports it).
pub fn on() -> bool {
    matches!(config(), Ok(Some(_)))
}

thread_local! {
    static REFLECT_MPI: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static LAYERS: RefCell<HashMap<Fint, Rc<RefCell<Hybrid>>>> = RefCell::new(HashMap::new());
    static CALLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The hybrid layer of `comm` (made on first use: collective over `comm`, as
/// the bcast or reduction that asks is); `None` when the variable is unset.
pub fn layer(loc: *const XmpcLoc, comm: Fint) -> Option<Rc<RefCell<Hybrid>>> {
    let Ok(Some((k, cap))) = config() else {
        subcluster(loc);
        return None;
    };
    CALLS.with(|c| c.set(c.get() + 1));
    Some(LAYERS.with(|m| m.borrow_mut().entry(comm).or_insert_with(|| Rc::new(RefCell::new(Hybrid::new(comm, *k, *cap)))).clone()))
}

/// Counts halos a reflect sent as MPI messages (the report's "over MPI").
pub fn count_mpi_halos(n: u64) {
    REFLECT_MPI.with(|c| c.set(c.get() + n));
}

/// Reductions the layer computes (MPI_Reduce_local accepts the pair): the
/// others keep MPI's path and its error.
pub fn reducible(ty: c_int, op: c_int) -> bool {
    match op {
        0 | 1 => (1..=14).contains(&ty),
        2..=4 => (1..=9).contains(&ty),
        5 | 6 => (1..=9).contains(&ty) || ty == 15,
        7..=12 => (1..=12).contains(&ty),
        _ => false,
    }
}

/// Omni's route for a halo of width `w` on dimension `d` of a C-order block
/// (`allocs`: allocated extents): true when it must go over MPI even inside a
/// subcluster (contiguous and above 256 KB). False when the layer is off.
pub fn halo_over_mpi(allocs: &[usize], d: usize, w: usize, elem: usize) -> bool {
    use xmpc_tca::classify::{classify, halo_shape, Order, Route};
    matches!(config(), Ok(Some(_))) && halo_shape(Order::C, allocs, d, w, elem).is_some_and(|s| classify(s).1 == Route::Mpi)
}

/// `XMPC_TCA_REPORT=1`: one line per process at finalize (what the layer did).
pub fn report() {
    if std::env::var("XMPC_TCA_REPORT").map_or(true, |v| v.trim() != "1") {
        return;
    }
    let calls = CALLS.with(|c| c.get());
    let (mut chains, mut msgs, mut fb) = (0, 0, 0);
    LAYERS.with(|m| {
        for h in m.borrow().values() {
            let s = h.borrow().stats;
            chains += s.chains;
            msgs += s.mpi_msgs;
            fb += s.fallbacks;
        }
    });
    // One write per line: stderr is unbuffered, and eprintln! writes each piece of the
    // format separately, so the lines of processes sharing mpiexec's stderr interleaved.
    let line = format!(
        "xmpc tca (TCA emulated over a shared-memory window): {calls} hybrid collectives, {chains} TCA chains, {msgs} MPI messages, {fb} handed to MPI whole\n"
    );
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    // reflect's halos (MPI ones counted only while the layer is on)
    let h = xmpc_tca::halo::stats();
    let mpi = if on() { REFLECT_MPI.with(|c| c.get()) } else { 0 };
    let line = format!(
        "xmpc tca reflect: {} TCA chains, {} Memcpy, {} Memcpy2D, {} packed, {} bytes, {mpi} halos over MPI\n",
        h.chains, h.memcpy, h.memcpy2d, h.packed, h.bytes
    );
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
}
