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
use std::cell::Cell;
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

/// `XMPC_SHM_GROUP=k` (testing): only groups of k consecutive processes of a
/// node share memory, so one run mixes on-node and MPI halos. Unset, a TCA
/// subcluster size (`XMPC_TCA_SUBCLUSTER=k`, tca.rs) groups the same way.
pub fn group() -> Option<c_int> {
    static G: OnceLock<Option<c_int>> = OnceLock::new();
    *G.get_or_init(|| {
        std::env::var("XMPC_SHM_GROUP").ok().and_then(|v| v.trim().parse().ok()).filter(|&k| k > 0).or_else(|| {
            xmpc_tca::rt::subcluster_from_env().ok().flatten().map(|k| k as c_int)
        })
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
        if n <= SPINS || (pinned && n % PINNED_YIELD_EVERY != 0) {
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

/// The window of one reflect plan. Freed only by `free` (xmpc_array_free, which
/// all nodes of the array reach together): MPI_Win_free is collective, so a plan
/// dropped elsewhere (re-allocation, xmpc_finalize, where processes may arrive
/// from different exits) leaves its window to MPI_Finalize.
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

fn round(n: usize) -> usize {
    n.div_ceil(LINE) * LINE
}

/// A slot with the phase it belongs to and whether it sends.
pub type Placed = (usize, bool, Slot);

/// Allocates the window over `comm` (collective there), publishes this
/// process's sends in a directory at the start of its part, and finds each
/// receive's slot in the sender's directory. Returns (phase, send?, slot).
pub fn setup(comm: Fint, me: c_int, wants: Vec<Want>) -> Result<(Win, Vec<Placed>), String> {
    let sends: Vec<&Want> = wants.iter().filter(|w| w.send).collect();
    let mut off = round(8 + ENTRY * sends.len());
    let mut offs = vec![];
    for w in &sends {
        offs.push(off);
        off += HEAD + round(w.bytes);
    }
    let mut base: *mut c_void = std::ptr::null_mut();
    // SAFETY: collective allocation; `base` receives this process's part.
    let win = unsafe { ffi::xs_win_shared(comm, off as c_long, &mut base) };
    let win = Win { win };
    let base = base as *mut u8;
    // SAFETY: this process's part is `off` bytes; entries are 8-byte aligned.
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
        ffi::xs_win_sync(win.win);
        crate::barrier::barrier(comm);
        ffi::xs_win_sync(win.win);
    }
    // SAFETY: collective over `comm`, as this function is.
    let pinned = unsafe { ffi::xs_pinned_team(comm) } != 0;
    let mut out = vec![];
    let mut k = 0;
    for w in &wants {
        let head = if w.send {
            k += 1;
            // SAFETY: inside this process's part.
            unsafe { base.add(offs[k - 1]) }
        } else {
            // SAFETY: the peer's part of the same window; its directory was
            // written before the barrier.
            unsafe {
                let pb = ffi::xs_win_query(win.win, w.peer) as *mut u8;
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
    Ok((win, out))
}
