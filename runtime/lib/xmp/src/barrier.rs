//! `xmp barrier` (and the runtime's own barriers) over FBS flags
//! (`xmpc-fbs`, docs/fbs.md): the processes of one shared-memory node meet on
//! flags in an `MPI_Win_allocate_shared` window; with more than one node, the
//! node leaders (shm rank 0) then meet in one MPI_Barrier, and a second FBS
//! point releases each node once its leader is back.
//!
//! The flags are atomics on the window memory: a process's arrival is a
//! sequentially consistent store (the release of everything it wrote before
//! the barrier), its departure follows acquire loads of every other flag, so
//! the barrier orders memory like MPI_Barrier does between MPI_Win_sync
//! calls on a window in the unified model (the window is held in one
//! `lock_all` epoch for its life, like the halo windows in shm.rs). Waiters
//! spin, then yield, then sleep on a process-shared futex, turning MPI's
//! progress engine while they yield or sleep (a peer blocked in MPI on this
//! process's message still gets it).
//!
//! Set up per communicator on its first barrier (collective there, as the
//! barrier is) and cached for the program's life: communicators made by the
//! runtime are never freed. `XMPC_FBS=0` uses MPI_Barrier throughout.

use crate::ffi::{self, Fint};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_int, c_long, c_void};
use std::rc::Rc;
use std::sync::OnceLock;
use xmpc_fbs::{area_bytes, Flags, Layout, Policy, Sleep, LINE};

/// `XMPC_FBS=0` turns the FBS barrier off (MPI_Barrier).
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("XMPC_FBS").map_or(true, |v| v.trim() != "0"))
}

/// The FBS barrier of one communicator.
struct Node {
    flags: Flags,
    /// This process's index among the node's processes.
    me: usize,
    /// More than one node: the leaders meet in an MPI barrier.
    multi: bool,
    /// The leaders' communicator (leaders only, when `multi`).
    leaders: Option<Fint>,
}

thread_local! {
    static NODES: RefCell<HashMap<Fint, Rc<Node>>> = RefCell::new(HashMap::new());
    static LAST: RefCell<Option<(Fint, Rc<Node>)>> = const { RefCell::new(None) };
}

thread_local! {
    static POINTS: std::cell::Cell<i64> = const { std::cell::Cell::new(0) };
}

/// Barriers this process ran through FBS flags (for tests and benchmarks:
/// 0 with `XMPC_FBS=0`).
#[no_mangle]
pub extern "C" fn xmpc_rt_fbs_points() -> c_long {
    POINTS.with(|p| p.get()) as c_long
}

fn progress() {
    // SAFETY: MPI is up while a barrier runs.
    unsafe { ffi::xs_progress() }
}

/// Barrier among the processes of `comm` (all members call it).
pub fn barrier(comm: Fint) {
    if !enabled() {
        // SAFETY: a valid communicator of this process.
        unsafe { ffi::xs_barrier(comm) };
        return;
    }
    // the last communicator's barrier first (a loop of barriers on one set)
    let node = match LAST.with(|l| l.borrow().as_ref().filter(|(c, _)| *c == comm).map(|(_, n)| n.clone())) {
        Some(n) => n,
        None => {
            let n = match NODES.with(|m| m.borrow().get(&comm).cloned()) {
                Some(n) => n,
                None => {
                    let n = Rc::new(setup(comm));
                    NODES.with(|m| m.borrow_mut().insert(comm, n.clone()));
                    n
                }
            };
            LAST.with(|l| *l.borrow_mut() = Some((comm, n.clone())));
            n
        }
    };
    POINTS.with(|p| p.set(p.get() + 1));
    node.flags.wait(node.me);
    if node.multi {
        if let Some(l) = node.leaders {
            // SAFETY: the leaders' communicator, all leaders call it.
            unsafe { ffi::xs_barrier(l) };
        }
        // release: nobody passes before the leader, who arrives after the
        // leaders' barrier (all processes of this point arrive here too, so
        // the mod-3 point numbers stay in step)
        node.flags.wait(node.me);
    }
}

/// The node communicator (honouring `XMPC_SHM_GROUP`, like the halos), the
/// flag window (all in shm rank 0's part), the leaders' communicator.
fn setup(comm: Fint) -> Node {
    // SAFETY: collective calls over `comm` and the communicators split from
    // it, made by all members in the same order; the window part of shm rank
    // 0 holds area_bytes(n) bytes, zeroed before the MPI barrier below and
    // used only through the Flags view after it.
    unsafe {
        let shm = crate::shm::split_node(comm);
        let me = ffi::xs_comm_rank(shm);
        let n = ffi::xs_comm_size(shm) as usize;
        let bytes = if me == 0 { area_bytes(n, Layout::Separate) + LINE } else { 0 };
        let mut base: *mut c_void = std::ptr::null_mut();
        let win = ffi::xs_win_shared(shm, bytes as c_long, &mut base);
        let p0 = ffi::xs_win_query(win, 0) as *mut u8;
        // the window is page-aligned in MPICH; align anyway
        let p0 = p0.add(p0.align_offset(LINE));
        if me == 0 {
            std::ptr::write_bytes(p0, 0, area_bytes(n, Layout::Separate));
        }
        let leader = me == 0;
        let leaders = ffi::xs_comm_split(comm, if leader { 0 } else { -1 }, ffi::xs_comm_rank(comm));
        let mut nodes: c_int = leader as c_int;
        ffi::xs_allreduce(&mut nodes as *mut c_int as *mut c_void, 1, crate::XMPC_TYPE_INT, crate::XMPC_OP_SUM, comm);
        ffi::xs_win_sync(win);
        ffi::xs_barrier(comm);
        ffi::xs_win_sync(win);
        // Oversubscribed or not is a property of the team: under `mpiexec -bind-to
        // core` each process may use one CPU (available_parallelism() = 1), yet
        // every peer has a core of its own. Judged per process, 2 bound processes
        // took the oversubscribed policy (16 spins, yields, then the futex) and a
        // barrier exit cost a yield + MPI progress call or a futex wake-up, which
        // the isolated reflect after it measured (issue 22: 9.3 us bound, 2.8 unbound).
        let cpus = ffi::xs_team_cpus(shm);
        let mut policy = if cpus > 0 { Policy::for_cpus(n, cpus as usize) } else { Policy::for_participants(n) };
        // processes spin longer than threads before yielding (~100 µs, as
        // MPI's own barrier spins without end): a yield or sleep costs an MPI
        // progress call and, on a busy machine, the core
        if policy == Policy::default() {
            policy.spins = 4096;
        }
        let flags = Flags::from_raw(p0, n, Layout::Separate, Sleep::Shared, policy).with_idle(progress);
        Node { flags, me: me as usize, multi: nodes > 1, leaders: (leader && nodes > 1).then_some(leaders) }
    }
}
