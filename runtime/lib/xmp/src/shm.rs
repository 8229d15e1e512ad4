//! Shared-memory halos: neighbours on the same node exchange through slots in
//! an `MPI_Win_allocate_shared` window instead of MPI messages.
//!
//! The sender packs its boundary (MPI_Pack with the subarray type; a plain copy
//! when contiguous) into a slot of its own part of the window and raises the
//! slot's `ready` count; the receiver unpacks straight from that slot into its
//! shadow (MPI_Unpack) and raises `done`. That is two passes over the strided
//! data and no transport copy, against pack + two transport copies + unpack on
//! MPI's shared-memory path. The array itself stays private (huge pages: a
//! strided pass over 4 KiB shared pages is TLB-bound, 3-10x slower).
//!
//! A sender waits for `done` of the slot's previous use only before packing
//! into it again, so a reflect waits on one flag per neighbour. Counts are per
//! slot (per plan), so the neighbours agree on them without a global order.

use crate::ffi::{self, Fint};
use std::cell::{Cell, RefCell};
use std::ffi::{c_int, c_long, c_void};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// `XMPC_SHM_HALO=0` sends every halo as MPI messages.
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("XMPC_SHM_HALO").map_or(true, |v| v.trim() != "0"))
}

/// Largest contiguous halo (bytes) that goes through the shared-memory slots;
/// larger ones go as MPI messages. The slots copy twice (sender into the slot,
/// receiver out of it) where MPICH's large-message path copies once: measured
/// here (testsuite/bench/xacc/reflect_do.py --nx, 2 processes, quiet) the slots
/// win up to 32 KiB (-37% at 16 KiB) and lose from 64 KiB (+40%). Strided
/// (typed) halos are not limited: MPI packs those too.
/// `XMPC_SHM_HALO_MAX=n` sets it (0: no limit).
pub fn slot_fits(bytes: usize) -> bool {
    static MAX: OnceLock<usize> = OnceLock::new();
    let max = *MAX.get_or_init(|| std::env::var("XMPC_SHM_HALO_MAX").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(32768));
    max == 0 || bytes <= max
}

/// More processes share this node's memory in `comm` (its shm communicator) than the
/// node has CPUs online: then every halo goes through the slots. MPI's large
/// messages (rendezvous) need both sides running at once, and a descheduled peer
/// stalls the other for a time slice: XcalableACC's `shadow_reflect_mem` (4
/// processes on 2 CPUs, 96 KiB rows) took 12 ms per reflect over MPI, 4.8 ms through
/// the slots. The same on every process of a node (a count of the node, not of a
/// process's affinity), so both sides of a halo route it alike. An explicit
/// `XMPC_SHM_HALO_MAX` wins over this (the same on every process too).
pub fn crowded(comm: Fint) -> bool {
    if std::env::var_os("XMPC_SHM_HALO_MAX").is_some() {
        return false;
    }
    extern "C" {
        fn sysconf(name: c_int) -> c_long;
    }
    const SC_NPROCESSORS_ONLN: c_int = 84; // glibc, Linux
    static CPUS: OnceLock<c_long> = OnceLock::new();
    // SAFETY: sysconf reads a system constant.
    let cpus = *CPUS.get_or_init(|| unsafe { sysconf(SC_NPROCESSORS_ONLN) });
    // SAFETY: a local query of a live communicator.
    cpus > 0 && c_long::from(unsafe { ffi::xs_comm_size(comm) }) > cpus
}

/// `XMPC_SHM_GROUP=k` (testing): only groups of k consecutive processes of a
/// node share memory, so one run mixes on-node and MPI halos. Unset, a TCA
/// subcluster size (`XMPC_TCA_SUBCLUSTER=k`, tca.rs) groups the same way.
pub fn group() -> Option<c_int> {
    static G: OnceLock<Option<c_int>> = OnceLock::new();
    *G.get_or_init(|| {
        std::env::var("XMPC_SHM_GROUP")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .filter(|&k| k > 0)
            .or_else(|| xmpc_tca::rt::subcluster_from_env().ok().flatten().map(|k| k as c_int))
    })
}

/// Where a halo lies in the local block: a subarray type, or `len` bytes at a
/// byte offset (contiguous halos: copied without the datatype engine).
#[derive(Clone, Copy)]
pub enum Region {
    Typed(Fint),
    Bytes(usize),
}

const LINE: usize = 64;
/// Slot header: `ready` (written by the sender), `done` (by the receiver),
/// each on its own cache line.
const HEAD: usize = 2 * LINE;
/// Directory entry: receiver's shm rank, tag, slot offset, bytes.
const ENTRY: usize = 4 * 8;

/// Flag checks before a waiter starts yielding (about 100 µs of `spin_loop`).
const SPINS: u32 = 4000;
/// A waiter of a pinned team yields once per this many checks (about 1.5 ms):
/// only to let a helper process that shares its CPU (mpiexec's proxy) run.
const PINNED_YIELD_EVERY: u32 = 1 << 16;

/// Waits until `x` reaches `v`. Spin briefly, then give the core away: the
/// machine may run more processes than cores, and the writer may be waiting for
/// this core. Not so in a pinned team (`mpiexec -bind-to core`, one CPU per
/// process, [`ffi::xs_pinned_team`]): the writer runs on a CPU of its own, so a
/// yield never helps it and only hands this CPU to another program for a time
/// slice, which the reflect then waits out (issue 22: 2 bound processes on a
/// loaded 2-CPU machine yielded 6 times per isolated reflect); such a waiter
/// keeps spinning.
fn wait_for(x: &AtomicU64, v: u64, pinned: bool) {
    let mut n = 0u32;
    while x.load(Ordering::Acquire) < v {
        n = n.wrapping_add(1);
        if n <= SPINS || (pinned && !n.is_multiple_of(PINNED_YIELD_EVERY)) {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}

fn flag<'a>(p: *mut u8, k: usize) -> &'a AtomicU64 {
    // SAFETY: slot headers are 64-byte aligned inside a live window.
    unsafe { &*(p.add(k * LINE) as *const AtomicU64) }
}

/// One direction of a halo through a slot.
pub struct Slot {
    pub region: Region,
    /// Slot header in the sender's part of the window; data follows it.
    head: *mut u8,
    bytes: usize,
    uses: Cell<u64>,
    /// The team is pinned (see [`wait_for`]).
    pinned: bool,
}

/// A receive started (count taken), to be finished now or at wait_async.
#[derive(Clone, Copy)]
pub struct RecvOp {
    region: Region,
    head: *mut u8,
    bytes: usize,
    base: *mut u8,
    seq: u64,
    pinned: bool,
}

impl Slot {
    /// Packs `base`'s boundary into the slot once the receiver has taken the
    /// previous contents, then announces it.
    pub fn send(&self, base: *const u8) {
        let seq = self.uses.get() + 1;
        self.uses.set(seq);
        wait_for(flag(self.head, 1), seq - 1, self.pinned);
        // SAFETY: the slot holds `bytes`; the region lies in the local block.
        unsafe {
            let data = self.head.add(HEAD);
            match self.region {
                Region::Typed(t) => ffi::xs_pack(base as *const c_void, t, data as *mut c_void, self.bytes as c_int),
                Region::Bytes(off) => std::ptr::copy_nonoverlapping(base.add(off), data, self.bytes),
            }
        }
        flag(self.head, 0).store(seq, Ordering::Release);
    }

    pub fn recv(&self, base: *mut u8) -> RecvOp {
        let seq = self.uses.get() + 1;
        self.uses.set(seq);
        RecvOp { region: self.region, head: self.head, bytes: self.bytes, base, seq, pinned: self.pinned }
    }
}

impl RecvOp {
    /// Waits for the sender's data, unpacks it into the shadow, releases the slot.
    pub fn run(&self) {
        wait_for(flag(self.head, 0), self.seq, self.pinned);
        // SAFETY: as for Slot::send, on the receiving side.
        unsafe {
            let data = self.head.add(HEAD);
            match self.region {
                Region::Typed(t) => ffi::xs_unpack(data as *const c_void, self.bytes as c_int, self.base as *mut c_void, t),
                Region::Bytes(off) => std::ptr::copy_nonoverlapping(data, self.base.add(off), self.bytes),
            }
        }
        flag(self.head, 1).store(self.seq, Ordering::Release);
    }
}

/// A halo to route through shared memory: peer = its rank in the shm communicator.
pub struct Want {
    pub phase: usize,
    pub send: bool,
    pub peer: c_int,
    pub tag: c_int,
    pub region: Region,
    pub bytes: usize,
}

/// The window of one reflect plan whose slots did not fit in the node arena.
/// Freed only by `free` (xmpc_array_free, which all nodes of the array reach
/// together): MPI_Win_free is collective, so a plan dropped elsewhere
/// (re-allocation, xmpc_finalize, where processes may arrive from different
/// exits) leaves its window to MPI_Finalize.
pub struct Win {
    pub win: Fint,
}

impl Win {
    /// MPI_Win_free: collective over the plan's shm communicator.
    pub fn free(self) {
        // SAFETY: the window was made by setup and is freed once (consumed).
        unsafe { ffi::xs_win_free(self.win) }
    }
}

/// The node arena: one shared window made at start-up over the world's node
/// communicator, from which reflect plans take their slots. A window per plan
/// costs an `MPI_Win_allocate_shared` (about 1 ms for 2 processes here: MPICH
/// creates and maps /dev/shm segments), which the first reflect of each array paid
/// inside the user's loop (issue 22: 1.2 ms of a 5.7 ms run of Laplace 256² x 100
/// at 2 processes). Each process hands out its own part front to back and never
/// takes space back (a dropped plan's peer may still be reading its last slot); a
/// plan that does not fit on every process of its communicator gets a window of
/// its own, as before. `XMPC_SHM_ARENA=bytes` per process (default 1 MiB; 0: none).
/// A freed array gives its plans' space back ([`Lease::release`], after a barrier of
/// the plan's processes, so no peer still reads it): a function that makes, reflects
/// and frees a local distributed array 10,000 times (XcalableACC's
/// `shadow_reflect_mem`) used to pay a window of its own for every call once the
/// arena was full.
struct Arena {
    /// The node communicator (after the `XMPC_SHM_GROUP` split, as halos use).
    comm: Fint,
    win: Fint,
    /// This process's part and its size.
    base: *mut u8,
    size: usize,
    used: Cell<usize>,
    /// Space given back below `used` (start, bytes), sorted and coalesced.
    free: RefCell<Vec<(usize, usize)>>,
}

impl Arena {
    /// First fit among the given-back ranges, else the end of the used part.
    fn find(&self, bytes: usize) -> Option<usize> {
        let free = self.free.borrow();
        if let Some(&(s, _)) = free.iter().find(|(_, n)| *n >= bytes) {
            return Some(s);
        }
        let start = self.used.get();
        (start + bytes <= self.size).then_some(start)
    }

    /// Takes `start..start + bytes` (an answer of `find`).
    fn take(&self, start: usize, bytes: usize) {
        let mut free = self.free.borrow_mut();
        if let Some(k) = free.iter().position(|&(s, n)| s == start && n >= bytes) {
            if free[k].1 == bytes {
                free.remove(k);
            } else {
                free[k] = (start + bytes, free[k].1 - bytes);
            }
        } else {
            self.used.set(start + bytes);
        }
    }

    /// Gives `start..start + bytes` back: merged with its neighbours, and the used
    /// part shrinks when the range was at its end.
    fn give_back(&self, start: usize, bytes: usize) {
        let mut free = self.free.borrow_mut();
        let k = free.partition_point(|&(s, _)| s < start);
        free.insert(k, (start, bytes));
        if k + 1 < free.len() && free[k].0 + free[k].1 == free[k + 1].0 {
            free[k].1 += free[k + 1].1;
            free.remove(k + 1);
        }
        if k > 0 && free[k - 1].0 + free[k - 1].1 == free[k].0 {
            free[k - 1].1 += free[k].1;
            free.remove(k);
        }
        if let Some(&(s, n)) = free.last() {
            if s + n == self.used.get() {
                self.used.set(s);
                free.pop();
            }
        }
    }
}

/// A plan's space in the node arena.
pub struct Lease {
    comm: Fint,
    start: usize,
    bytes: usize,
}

impl Lease {
    /// Gives the space back once every process of the plan has come here (collective
    /// over the plan's communicator: arrays are freed by all their nodes, plans in the
    /// same order), so no neighbour still reads this process's slots.
    pub fn release(self) {
        // SAFETY: collective over the plan's communicator, reached by all its members.
        unsafe { ffi::xs_barrier(self.comm) };
        ARENA.with(|a| {
            if let Some(a) = a.borrow().as_ref() {
                a.give_back(self.start, self.bytes);
            }
        });
    }
}

thread_local! {
    static ARENA: RefCell<Option<Arena>> = const { RefCell::new(None) };
}

/// Makes the node arena (collective over the world; `xmpc_init`). All processes
/// make one or none alike (world size, `XMPC_SHM_HALO`, `XMPC_SHM_ARENA`), so a
/// plan's processes agree on trying it.
pub fn init_arena() {
    let size = std::env::var("XMPC_SHM_ARENA").ok().and_then(|v| v.trim().parse::<usize>().ok()).unwrap_or(1 << 20);
    // SAFETY: MPI is initialised; collective calls made by every process in order.
    unsafe {
        let w = ffi::xs_comm_world();
        if !enabled() || size == 0 || ffi::xs_comm_size(w) < 2 {
            return;
        }
        let c = split_node(w);
        let size = round(size);
        let mut base: *mut c_void = std::ptr::null_mut();
        let win = ffi::xs_win_shared(c, size as c_long, &mut base);
        ARENA.with(|a| *a.borrow_mut() = Some(Arena { comm: c, win, base: base as *mut u8, size, used: Cell::new(0), free: RefCell::new(vec![]) }));
    }
}

/// The processes of `comm` on this shared-memory node (collective over `comm`),
/// in pieces of `XMPC_SHM_GROUP` (testing: each k processes of a node pretend to be
/// a node). Node sets (halos), the barrier and the arena split alike.
pub fn split_node(comm: Fint) -> Fint {
    // SAFETY: collective over `comm`, made by all its members in the same order.
    unsafe {
        let mut c = ffi::xs_comm_split_shared(comm);
        if let Some(k) = group() {
            let r = ffi::xs_comm_rank(c);
            c = ffi::xs_comm_split(c, r / k, r);
        }
        c
    }
}

/// The rank in `to` of each rank of `from` (-1: not there); local.
pub fn ranks_in(from: Fint, to: Fint) -> Vec<c_int> {
    // SAFETY: local group queries; both arrays hold size(from) ranks.
    unsafe {
        let n = ffi::xs_comm_size(from);
        let ranks: Vec<c_int> = (0..n).collect();
        let mut out = vec![-1 as c_int; n as usize];
        ffi::xs_translate_ranks(from, n, ranks.as_ptr(), to, out.as_mut_ptr());
        out
    }
}

/// The node communicator of the arena (split from the world): the shm
/// communicator of a node set holding the whole world in order (nodes.rs), so
/// the first reflect does not split it again. None on every process alike.
pub fn node_comm() -> Option<Fint> {
    ARENA.with(|a| a.borrow().as_ref().map(|a| a.comm))
}

/// `bytes` of this process's arena part for a plan over `comm`, if they fit on
/// every process of `comm` (collective there: one allgather). Returns the arena
/// window, this process's region, each member's region (by rank in `comm`) and the
/// lease that gives the space back.
fn arena_part(comm: Fint, bytes: usize) -> Option<(Fint, *mut u8, Vec<*mut u8>, Lease)> {
    ARENA.with(|a| {
        let a = a.borrow();
        let a = a.as_ref()?;
        let at = ranks_in(comm, a.comm);
        let n = at.len();
        let found = if at.iter().all(|&r| r >= 0) { a.find(bytes) } else { None };
        let (fits, start) = (found.is_some(), found.unwrap_or(0));
        let mine = [fits as i64, start as i64];
        let mut all = vec![0i64; 2 * n];
        // SAFETY: collective over comm, which every member reaches with an arena.
        unsafe { ffi::xs_allgather(mine.as_ptr() as *const c_void, 16, all.as_mut_ptr() as *mut c_void, comm) };
        if !all.chunks(2).all(|x| x[0] == 1) {
            return None;
        }
        a.take(start, bytes);
        // SAFETY: every member's part of the arena window is mapped here; the
        // offsets lie inside the parts (checked by their owners above).
        let parts = (0..n).map(|r| unsafe { (ffi::xs_win_query(a.win, at[r]) as *mut u8).add(all[2 * r + 1] as usize) }).collect();
        // SAFETY: inside this process's part (start + bytes <= size).
        Some((a.win, unsafe { a.base.add(start) }, parts, Lease { comm, start, bytes }))
    })
}

fn round(n: usize) -> usize {
    n.div_ceil(LINE) * LINE
}

/// A slot with the phase it belongs to and whether it sends.
pub type Placed = (usize, bool, Slot);

/// A plan's own window or its lease in the arena, and its slots.
pub type Setup = (Option<Win>, Option<Lease>, Vec<Placed>);

/// Places the plan's slots in the node arena, or else in a window of its own over
/// `comm` (collective there either way), publishes this process's sends in a
/// directory at the start of its region, and finds each receive's slot in the
/// sender's directory. Returns the plan's own window or its lease in the arena and
/// (phase, send?, slot) per halo.
pub fn setup(comm: Fint, me: c_int, wants: Vec<Want>, key: &[i64]) -> Result<Setup, String> {
    if let Some((lease, slots)) = take_pooled(comm, key) {
        return Ok((None, Some(lease), reuse(slots, &wants)?));
    }
    let sends: Vec<&Want> = wants.iter().filter(|w| w.send).collect();
    let mut off = round(8 + ENTRY * sends.len());
    let mut offs = vec![];
    for w in &sends {
        offs.push(off);
        off += HEAD + round(w.bytes);
    }
    let (own, lease, sync_win, base, parts) = match arena_part(comm, off) {
        Some((w, base, parts, lease)) => (None, Some(lease), w, base, parts),
        None => {
            let mut base: *mut c_void = std::ptr::null_mut();
            // SAFETY: collective allocation; `base` receives this process's part,
            // every member's part is mapped here.
            let win = unsafe { ffi::xs_win_shared(comm, off as c_long, &mut base) };
            let n = unsafe { ffi::xs_comm_size(comm) };
            let parts = (0..n).map(|r| unsafe { ffi::xs_win_query(win, r) as *mut u8 }).collect();
            (Some(Win { win }), None, win, base as *mut u8, parts)
        }
    };
    // SAFETY: this process's region is `off` bytes, held by no other plan (space
    // comes back to the arena only after its plan's processes met in a barrier);
    // entries are 8-byte aligned.
    unsafe {
        std::ptr::write_bytes(base, 0, off);
        let dir = base as *mut i64;
        *dir = sends.len() as i64;
        for (i, (w, &o)) in sends.iter().zip(&offs).enumerate() {
            let e = dir.add(1 + 4 * i);
            *e = w.peer as i64;
            *e.add(1) = w.tag as i64;
            *e.add(2) = o as i64;
            *e.add(3) = w.bytes as i64;
        }
        // MPI_Barrier, not the xmp barrier: that would make its own flag window
        // for this communicator (~200 us, once), for a wait that happens once per plan
        ffi::xs_win_sync(sync_win);
        ffi::xs_barrier(comm);
        ffi::xs_win_sync(sync_win);
    }
    let pinned = pinned_team(comm);
    let mut out = vec![];
    let mut k = 0;
    for w in &wants {
        let head = if w.send {
            k += 1;
            // SAFETY: inside this process's region.
            unsafe { base.add(offs[k - 1]) }
        } else {
            // SAFETY: the peer's region (arena or window); its directory was
            // written before the barrier.
            unsafe {
                let pb = parts[w.peer as usize];
                let dir = pb as *const i64;
                let n = *dir as usize;
                let e = (0..n)
                    .map(|i| dir.add(1 + 4 * i))
                    .find(|&e| *e == me as i64 && *e.add(1) == w.tag as i64)
                    .ok_or("reflect: a neighbour on this node has no matching halo (did all nodes run the same reflect?)")?;
                if *e.add(3) as usize != w.bytes {
                    return Err(format!("reflect: halo sizes differ between neighbours ({} and {} bytes)", *e.add(3), w.bytes));
                }
                pb.add(*e.add(2) as usize)
            }
        };
        out.push((w.phase, w.send, Slot { region: w.region, head, bytes: w.bytes, uses: Cell::new(0), pinned }));
    }
    Ok((own, lease, out))
}

/// `xs_pinned_team` (two allreduces) once per communicator: CPU affinities do not
/// change during a run. Collective over `comm` the first time, on every member alike.
fn pinned_team(comm: Fint) -> bool {
    thread_local! {
        static PINNED: RefCell<Vec<(Fint, bool)>> = const { RefCell::new(vec![]) };
    }
    if let Some(p) = PINNED.with(|p| p.borrow().iter().find(|x| x.0 == comm).map(|x| x.1)) {
        return p;
    }
    // SAFETY: collective over `comm`, reached by all its members (setup is).
    let p = unsafe { ffi::xs_pinned_team(comm) } != 0;
    PINNED.with(|v| v.borrow_mut().push((comm, p)));
    p
}

/// Slots of freed arrays' plans kept for the next plan of the same key, per
/// communicator: a function that makes, reflects and frees a local distributed
/// array at every call (XcalableACC's `shadow_reflect_mem`: 10,000 calls at 4
/// processes) paid an allgather and two barriers per call, each tens of ms with
/// more processes than cores. The key is the array's global description with the
/// widths ([`crate::reflect::Plan`]), the same on every node, and every member of a
/// communicator retires and takes in the same order (arrays are freed by all their
/// nodes, plans built by all), so the pools agree without a message and a reused
/// slot goes on with its `ready`/`done` counts as if the plan had lived on.
struct Pooled {
    comm: Fint,
    key: Vec<i64>,
    lease: Lease,
    slots: Vec<Placed>,
}

/// Plans kept per communicator; the oldest is given back beyond this.
const POOL_MAX: usize = 8;

thread_local! {
    static POOL: RefCell<Vec<Pooled>> = const { RefCell::new(vec![]) };
}

/// A freed plan's arena space and slots (phase order, sends first in each phase),
/// kept for reuse; the communicator's oldest kept plan beyond [`POOL_MAX`] is given
/// back (a barrier over its communicator, which is this one: every member is here).
pub fn retire(key: Vec<i64>, lease: Lease, slots: Vec<Placed>) {
    let comm = lease.comm;
    let old = POOL.with(|p| {
        let mut p = p.borrow_mut();
        p.push(Pooled { comm, key, lease, slots });
        let mine: Vec<usize> = (0..p.len()).filter(|&i| p[i].comm == comm).collect();
        (mine.len() > POOL_MAX).then(|| p.remove(mine[0]))
    });
    if let Some(o) = old {
        o.lease.release();
    }
}

fn take_pooled(comm: Fint, key: &[i64]) -> Option<(Lease, Vec<Placed>)> {
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        let k = p.iter().position(|x| x.comm == comm && x.key == key)?;
        let x = p.remove(k);
        Some((x.lease, x.slots))
    })
}

/// The kept slots in the order of `wants` (each the next of its phase and
/// direction), with the new plan's regions.
fn reuse(mut slots: Vec<Placed>, wants: &[Want]) -> Result<Vec<Placed>, String> {
    let mut out = vec![];
    for w in wants {
        let k = slots
            .iter()
            .position(|(ph, send, s)| *ph == w.phase && *send == w.send && s.bytes == w.bytes)
            .ok_or("reflect: a kept halo plan does not match the new one")?;
        let (ph, send, mut s) = slots.remove(k);
        s.region = w.region;
        out.push((ph, send, s));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arena(size: usize) -> Arena {
        Arena { comm: 0, win: 0, base: std::ptr::null_mut(), size, used: Cell::new(0), free: RefCell::new(vec![]) }
    }

    fn alloc(a: &Arena, n: usize) -> Option<usize> {
        let s = a.find(n)?;
        a.take(s, n);
        Some(s)
    }

    #[test]
    fn freed_space_is_found_again_and_coalesced() {
        let a = arena(1000);
        let (x, y, z) = (alloc(&a, 300).unwrap(), alloc(&a, 300).unwrap(), alloc(&a, 300).unwrap());
        assert_eq!((x, y, z), (0, 300, 600));
        assert_eq!(alloc(&a, 200), None); // full
        a.give_back(y, 300);
        assert_eq!(alloc(&a, 100), Some(300)); // first fit, split
        assert_eq!(alloc(&a, 200), Some(400));
        a.give_back(300, 100);
        a.give_back(400, 200);
        a.give_back(x, 300); // 0..600 in one piece
        assert_eq!(*a.free.borrow(), vec![(0, 600)]);
        a.give_back(z, 300); // the end: the used part shrinks to nothing
        assert_eq!(a.used.get(), 0);
        assert!(a.free.borrow().is_empty());
        // make, use, free 10,000 times: the arena never fills
        for _ in 0..10_000 {
            let s = alloc(&a, 700).unwrap();
            a.give_back(s, 700);
        }
        assert_eq!(a.used.get(), 0);
    }
}
