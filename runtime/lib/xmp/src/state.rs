//! Process-wide state: the executing-nodes stack, async requests, caches.

use crate::ffi::{self, Fint};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bumped whenever the executing-nodes stack changes (start, task begin and end):
/// xmpc's libcaf (`runtime/lib/xmp/csrc/caf_lib.c`) asks `xmpc_rt_exec_images` again only
/// then, so a coindexed access outside a task costs a load, not a call. (Declared
/// in caf_lib.c as a `uint64_t`, the layout of `AtomicU64`.)
///
/// cbindgen:ignore
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static xmpc_rt_exec_gen: AtomicU64 = AtomicU64::new(0);

/// Notes a change of the executing-nodes stack (see [`xmpc_rt_exec_gen`]).
pub fn exec_changed() {
    xmpc_rt_exec_gen.fetch_add(1, Ordering::Relaxed);
}

/// A set of executing nodes: world ranks in node order and their communicator.
#[derive(Clone)]
pub struct Exec {
    pub world: Vec<i32>,
    pub comm: Fint,
    pub rank: i32,
}

/// A staged halo to unpack once its receive completed. The buffer and the
/// array block belong to a cached reflect plan, which lives as long as the array.
pub struct Unpack {
    pub buf: *const u8,
    pub bytes: i32,
    pub base: *mut u8,
    pub ty: Fint,
}

impl Unpack {
    pub fn run(&self) {
        // SAFETY: see the struct invariant; the type describes a region of `base`.
        unsafe { ffi::xs_unpack(self.buf as *const _, self.bytes, self.base as *mut _, self.ty) };
    }
}

/// Started requests, unpacks after them, on-node receives still to copy, TCA
/// receives still to wait for and copy.
pub type Pending = (Vec<Fint>, Vec<Unpack>, Vec<crate::shm::RecvOp>, Vec<xmpc_tca::halo::Recv>);

#[derive(Default)]
pub struct State {
    pub inits: Vec<extern "C" fn()>,
    pub world_rank: i32,
    pub world_size: i32,
    pub exec: Vec<Exec>,
    /// async id → started requests, the unpacks to do after them, and the
    /// on-node receives still to copy.
    pub pending: HashMap<i32, Pending>,
    /// (nodes address, member indices) → task communicator.
    pub task_comms: HashMap<(usize, Vec<usize>), Fint>,
    /// local base address → array descriptor (for xmp_desc_of).
    pub arrays: HashMap<usize, usize>,
    /// Every array descriptor created (their cached reflect plans are released at
    /// xmpc_finalize).
    pub all_arrays: Vec<usize>,
    pub next_array_id: i32,
    /// (executing world ranks, shape) → node set made by xmpc_nodes_new.
    pub nodes_cache: HashMap<(Vec<i32>, Vec<i64>), usize>,
    /// (template address, selected node indices) → node set made by
    /// xmpc_template_nodes_sub (`on t[...]`).
    pub templ_nodes: HashMap<(usize, Vec<usize>), usize>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// Short borrow of the global state; never call back into the runtime inside.
pub fn with<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STATE.with(|s| f(&mut s.borrow_mut()))
}

pub fn init_world() {
    // SAFETY: MPI is initialised.
    let (r, n, w) = unsafe {
        let w = ffi::xs_comm_world();
        (ffi::xs_comm_rank(w), ffi::xs_comm_size(w), w)
    };
    with(|s| {
        s.world_rank = r;
        s.world_size = n;
        s.exec = vec![Exec { world: (0..n).collect(), comm: w, rank: r }];
    });
    exec_changed();
    crate::shm::init_arena();
}

pub fn world_rank() -> i32 {
    with(|s| s.world_rank)
}

/// The current executing nodes (all processes before xmpc_init too, as 1 node).
/// The current executing nodes' communicator and this process's rank there
/// (no copy of the member list: the barrier's fast path).
pub fn exec_comm() -> (Fint, i32) {
    with(|s| s.exec.last().map_or((ffi::comm_null(), 0), |e| (e.comm, e.rank)))
}

pub fn exec() -> Exec {
    with(|s| s.exec.last().cloned().unwrap_or(Exec { world: vec![0], comm: ffi::comm_null(), rank: 0 }))
}
