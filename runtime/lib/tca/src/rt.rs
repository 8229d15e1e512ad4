//! The hybrid layer at run time, TCA emulated over a shared-memory window.
//!
//! Every rank of a subcluster owns one part of an `MPI_Win_allocate_shared`
//! window (the TCA-registered memory): a header of notify counters and a
//! `done` counter, each on its own cache line, then the work buffer and the
//! reduce slots. Its handle (offset and size) is exchanged once with
//! `MPI_Allgather`. A DMA chain is a [`Chain`] of `Memcpy`/`Memcpy2D`
//! descriptors that the writer's engine executes as plain stores into the
//! peer's part, then a release increment of the peer's notify counter for the
//! step: put-only, the receiver only waits (acquire) on its own counter.
//! Buffers and counters come twice, used by odd and even collectives in turn.
//! A rank raises its `done` counter to a collective's number when it enters the
//! next one: only then is it through with that collective's buffer (the slice
//! [`Hybrid::exchange`] returns is read after the call). A writer first checks
//! that the receiver is through with the collective before the previous one,
//! so a buffer is never overwritten while it is read, and a fast writer can run
//! one collective ahead. (Raising `done` at the end of the collective let a
//! writer that needs nothing from the receiver, a bcast's inner node, overwrite
//! an exchange's results while the caller still read them.)
//! Transfers across subclusters are MPI Isend/Irecv on a duplicate of the
//! communicator (the InfiniBand stand-in).

use crate::chain::{Chain, Desc, Handle};
use crate::ffi::{self, Fint};
use crate::sched::{self, Dst, Frame, Groups, Plan, Via};
use std::collections::HashMap;
use std::ffi::{c_int, c_long, c_void};
use std::sync::atomic::{AtomicU64, Ordering};

pub use crate::ffi::{xt_finalize as mpi_finalize, xt_init as mpi_init};

const LINE: usize = 64;
/// Notify counters (one per schedule step).
pub const NSTEP: usize = 48;
/// Reduce slots (one per allreduce step).
pub const NSLOT: usize = 10;
/// Notify counters of both parities, then `done`.
const HDR: usize = (2 * NSTEP + 1) * LINE;
const DONE: usize = 2 * NSTEP;
const TAG: c_int = 0x7ca0;

/// `XMPC_TCA_SUBCLUSTER=k`: `Ok(None)` when unset or empty; an error names the
/// variable and the value when it is not a positive integer.
pub fn subcluster_from_env() -> Result<Option<usize>, String> {
    match std::env::var("XMPC_TCA_SUBCLUSTER") {
        Err(_) => Ok(None),
        Ok(v) if v.trim().is_empty() => Ok(None),
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(k) if k > 0 => Ok(Some(k)),
            _ => Err(format!("XMPC_TCA_SUBCLUSTER={v:?}: expected a positive number of ranks per subcluster")),
        },
    }
}

/// `XMPC_TCA_BYTES`: the largest message the window carries (default 64 KiB);
/// larger ones take MPI's own collective.
pub fn capacity_from_env() -> Result<usize, String> {
    match std::env::var("XMPC_TCA_BYTES") {
        Err(_) => Ok(64 * 1024),
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(n) if n > 0 => Ok(n.div_ceil(LINE) * LINE),
            _ => Err(format!("XMPC_TCA_BYTES={v:?}: expected a positive number of bytes")),
        },
    }
}

/// What the layer did (tests and the benchmark read it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub chains: u64,
    pub descs: u64,
    pub tca_bytes: u64,
    pub mpi_msgs: u64,
    pub mpi_bytes: u64,
    /// Collectives handed whole to MPI (message larger than the window).
    pub fallbacks: u64,
    /// Chains that found a receiver still in the previous collective.
    pub waits_on_done: u64,
}

fn counter<'a>(base: *mut u8, line: usize) -> &'a AtomicU64 {
    // SAFETY: header lines are 64-byte aligned inside a live window part.
    unsafe { &*(base.add(line * LINE) as *const AtomicU64) }
}

pub(crate) fn spin_until(mut ok: impl FnMut() -> bool) -> bool {
    let mut n = 0u32;
    let mut waited = false;
    while !ok() {
        waited = true;
        n += 1;
        if n < 2000 {
            std::hint::spin_loop();
        } else {
            // the machine may run more processes than cores: give the core
            // away and turn MPI's progress engine (a peer may wait on it)
            std::thread::yield_now();
            if n & 63 == 0 {
                // SAFETY: MPI is up while a collective runs.
                unsafe { ffi::xt_progress() };
            }
        }
    }
    waited
}

/// The hybrid layer over one communicator. Created collectively; all members
/// then call the same collectives in the same order.
pub struct Hybrid {
    comm: Fint,
    rank: usize,
    groups: Groups,
    win: Option<Fint>,
    /// Base of each comm rank's window part (null outside this subcluster).
    bases: Vec<*mut u8>,
    handles: Vec<Handle>,
    cap: usize,
    seq: u64,
    expect: [[u64; NSTEP]; 2],
    plans: HashMap<(u8, usize, usize), Plan>,
    pub stats: Stats,
}

impl Hybrid {
    /// Collective over `comm`: ranks r with the same r / k that share a host
    /// form one subcluster; `cap` bytes of work buffer per rank.
    pub fn new(comm: Fint, k: usize, cap: usize) -> Hybrid {
        // SAFETY: collective MPI calls made by every member in the same order;
        // window parts are written only below their allocated size.
        unsafe {
            let comm = ffi::xt_comm_dup(comm);
            let rank = ffi::xt_comm_rank(comm) as usize;
            let size = ffi::xt_comm_size(comm) as usize;
            let sub = ffi::xt_comm_split(comm, (rank / k.max(1)) as c_int, rank as c_int);
            let shm = ffi::xt_comm_split_shared(sub);
            let n = ffi::xt_comm_size(shm) as usize;
            // comm rank of every member of this subcluster (index: shm rank)
            let me = rank as i32;
            let mut members = vec![0i32; n];
            ffi::xt_allgather(&me as *const i32 as *const c_void, 4, members.as_mut_ptr() as *mut c_void, shm);
            let gid = *members.iter().min().unwrap() as i32;
            let mut of = vec![0i32; size];
            ffi::xt_allgather(&gid as *const i32 as *const c_void, 4, of.as_mut_ptr() as *mut c_void, comm);
            let groups = Groups { of: of.iter().map(|&g| g as usize).collect() };
            let part = HDR + 2 * cap * (1 + NSLOT);
            let mut base: *mut c_void = std::ptr::null_mut();
            let win = ffi::xt_win_shared(shm, part as c_long, &mut base);
            std::ptr::write_bytes(base as *mut u8, 0, part);
            // the handle exchange: once, with MPI_Allgather, as Omni does
            let mine = Handle { rank: rank as u32, off: HDR as u64, len: (2 * cap * (1 + NSLOT)) as u64 };
            let mut handles = vec![Handle::default(); size];
            ffi::xt_allgather(&mine as *const Handle as *const c_void, std::mem::size_of::<Handle>() as c_int, handles.as_mut_ptr() as *mut c_void, comm);
            let mut bases = vec![std::ptr::null_mut(); size];
            for (s, &r) in members.iter().enumerate() {
                bases[r as usize] = ffi::xt_win_query(win, s as c_int) as *mut u8;
            }
            ffi::xt_win_sync(win);
            ffi::xt_barrier(comm);
            ffi::xt_win_sync(win);
            Hybrid { comm, rank, groups, win: Some(win), bases, handles, cap, seq: 0, expect: [[0; NSTEP]; 2], plans: HashMap::new(), stats: Stats::default() }
        }
    }

    pub fn rank(&self) -> usize {
        self.rank
    }
    pub fn size(&self) -> usize {
        self.groups.size()
    }
    /// Subcluster id (its lowest comm rank) of every rank.
    pub fn groups(&self) -> &Groups {
        &self.groups
    }
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Parity of the current collective.
    fn q(&self) -> usize {
        (self.seq & 1) as usize
    }
    /// Offset of the current parity's work buffer in a part.
    fn region(&self, r: usize) -> usize {
        self.handles[r].off as usize + self.q() * self.cap * (1 + NSLOT)
    }
    fn work(&self, r: usize) -> *mut u8 {
        // SAFETY: inside r's window part (checked by the callers' sizes).
        unsafe { self.bases[r].add(self.region(r)) }
    }
    fn slot(&self, r: usize, index: usize) -> *mut u8 {
        // SAFETY: slot `index` < NSLOT lies inside r's part.
        unsafe { self.work(r).add(self.cap * (1 + index)) }
    }

    /// Fits in the window: the message, and every slot step.
    fn fits(&self, plan: &Plan) -> bool {
        plan.work <= self.cap && plan.steps.iter().all(|s| s.index < NSTEP && (s.index < NSLOT || s.recvs.iter().all(|r| r.dst != Dst::Slot)))
    }

    /// Executes one descriptor chain (`tcaStartDMADesc` + the engine): the
    /// writes in order, then one notify per receiver on `step`'s counter.
    /// `src` is the writer's source buffer; offsets of the descriptors index it.
    ///
    /// # Safety
    /// `src` holds every source extent of the chain; every destination extent
    /// lies inside its receiver's registered region.
    unsafe fn start_chain(&mut self, chain: &Chain, src: *const u8, step: usize) {
        let mut ready: Vec<usize> = vec![];
        for d in chain.descs() {
            let dst = d.dst();
            if !ready.contains(&dst) {
                let done = counter(self.bases[dst], DONE);
                let want = self.seq.saturating_sub(2);
                if spin_until(|| done.load(Ordering::Acquire) >= want) {
                    self.stats.waits_on_done += 1;
                }
                ready.push(dst);
            }
            let base = self.bases[dst];
            match *d {
                Desc::Memcpy { dst_off, src_off, len, .. } => {
                    std::ptr::copy_nonoverlapping(src.add(src_off), base.add(dst_off), len);
                }
                Desc::Memcpy2D { dst_off, dst_pitch, src_off, src_pitch, width, height, .. } => {
                    for row in 0..height {
                        std::ptr::copy_nonoverlapping(src.add(src_off + row * src_pitch), base.add(dst_off + row * dst_pitch), width);
                    }
                }
            }
            self.stats.descs += 1;
            self.stats.tca_bytes += d.bytes() as u64;
        }
        let line = self.q() * NSTEP + step;
        for r in chain.receivers() {
            counter(self.bases[r], line).fetch_add(1, Ordering::Release);
        }
        self.stats.chains += 1;
    }

    /// `tcaWaitDMADesc` on the receiving side: `n` more notifies on `step`.
    fn wait_notify(&mut self, step: usize, n: u64) {
        let q = self.q();
        self.expect[q][step] += n;
        let want = self.expect[q][step];
        let c = counter(self.bases[self.rank], q * NSTEP + step);
        spin_until(|| c.load(Ordering::Acquire) >= want);
    }

    /// Runs this rank's steps. Sends read `src` (the work buffer, or a user
    /// buffer that holds the same bytes), receives land in the work buffer.
    fn run(&mut self, plan: &Plan, src: *const u8, reduce: &dyn Fn(*const u8, *mut u8)) {
        let me = self.rank;
        let work = self.work(me);
        for st in &plan.steps {
            let mut reqs: Vec<Fint> = vec![];
            let tag = TAG + st.index as c_int;
            for r in st.recvs.iter().filter(|r| r.via == Via::Mpi) {
                let p = match r.dst {
                    // SAFETY: offsets checked by sched::check's invariants and fits().
                    Dst::Work(o) => unsafe { work.add(o) },
                    Dst::Slot => self.slot(me, st.index),
                };
                // SAFETY: p holds r.len bytes until the wait below.
                reqs.push(unsafe { ffi::xt_irecv(p as *mut c_void, r.len as c_int, r.peer as c_int, tag, self.comm) });
            }
            let mut chain = Chain::new();
            for s in &st.sends {
                match s.via {
                    Via::Mpi => {
                        // SAFETY: the source holds s.src + s.len bytes.
                        reqs.push(unsafe { ffi::xt_isend(src.add(s.src) as *const c_void, s.len as c_int, s.peer as c_int, tag, self.comm) });
                        self.stats.mpi_msgs += 1;
                        self.stats.mpi_bytes += s.len as u64;
                    }
                    Via::Tca => {
                        let off = self.region(s.peer)
                            + match s.dst {
                                Dst::Work(o) => o,
                                Dst::Slot => self.cap * (1 + st.index),
                            };
                        // a step has at most a few transfers: never 1024
                        chain.memcpy(s.peer, off, s.src, s.len).expect("a step's chain exceeds 1024 descriptors");
                    }
                }
            }
            if !chain.is_empty() {
                // SAFETY: sources in the work buffer, destinations in the
                // receivers' regions (fits()).
                unsafe { self.start_chain(&chain, src, st.index) };
            }
            // SAFETY: requests made above.
            unsafe { ffi::xt_waitall(reqs.len() as c_int, reqs.as_mut_ptr()) };
            let tca_in = st.recvs.iter().filter(|r| r.via == Via::Tca).count() as u64;
            if tca_in > 0 {
                self.wait_notify(st.index, tca_in);
            }
            if st.reduce {
                reduce(self.slot(me, st.index), work);
            }
        }
    }

    /// Enters the next collective: this rank is through with the buffers of
    /// the last one (its callers have read them), which `done` tells writers.
    fn begin(&mut self) {
        counter(self.bases[self.rank], DONE).store(self.seq, Ordering::Release);
        self.seq += 1;
    }

    fn plan(&mut self, kind: u8, a: usize, b: usize) -> Plan {
        let g = &self.groups;
        self.plans
            .entry((kind, a, b))
            .or_insert_with(|| {
                let mut all = match kind {
                    0 => sched::bcast(g, a, b),
                    1 => sched::allgather(g, b),
                    _ => sched::allreduce(g, b),
                };
                all.swap_remove(self.rank)
            })
            .clone()
    }

    /// One put-only exchange through the window (a halo update on TCA):
    /// `chain`'s destination offsets index the receivers' work buffers, its
    /// sources `src`; then waits for `incoming` chains from others. Returns
    /// this rank's work buffer, valid until the next collective (the borrow
    /// of `self` ends there).
    /// All members of the communicator call it together (it counts as one
    /// collective); `None` when a destination lies outside a work buffer or
    /// outside this subcluster.
    ///
    /// # Safety
    /// `src` holds every source extent of the chain.
    pub unsafe fn exchange(&mut self, chain: &Chain, src: *const u8, incoming: u64) -> Option<&[u8]> {
        let mut out = Chain::new();
        for d in chain.descs() {
            let to = d.dst();
            if to >= self.size() || self.groups.of[to] != self.groups.of[self.rank] || d.extents().0 > self.cap {
                return None;
            }
        }
        self.begin();
        for d in chain.descs() {
            let base = self.region(d.dst());
            let r = match *d {
                Desc::Memcpy { dst, dst_off, src_off, len } => out.memcpy(dst, base + dst_off, src_off, len),
                Desc::Memcpy2D { dst, dst_off, dst_pitch, src_off, src_pitch, width, height } => {
                    out.memcpy2d(dst, base + dst_off, dst_pitch, src_off, src_pitch, width, height)
                }
            };
            r.expect("same length as the caller's chain");
        }
        if !out.is_empty() {
            self.start_chain(&out, src, 0);
        }
        if incoming > 0 {
            self.wait_notify(0, incoming);
        }
        Some(std::slice::from_raw_parts(self.work(self.rank), self.cap))
    }

    /// Hybrid broadcast of `buf` from `root` (bit for bit MPI_Bcast's result).
    pub fn bcast(&mut self, buf: &mut [u8], root: usize) {
        let plan = self.plan(0, root, buf.len());
        if !self.fits(&plan) {
            self.stats.fallbacks += 1;
            // SAFETY: buf is the caller's buffer.
            return unsafe { ffi::xt_mpi_bcast(buf.as_mut_ptr() as *mut c_void, buf.len() as c_int, root as c_int, self.comm) };
        }
        self.begin();
        let work = self.work(self.rank);
        // the root sends straight from the user's buffer (nothing is written
        // into a root's work buffer), the others forward what they received
        let src = if self.rank == root { buf.as_ptr() } else { work as *const u8 };
        self.run(&plan, src, &|_, _| {});
        if self.rank != root {
            // SAFETY: as above.
            unsafe { std::ptr::copy_nonoverlapping(work, buf.as_mut_ptr(), buf.len()) };
        }
    }

    /// Hybrid allgather: `send` (one block) from every rank into `recv` (size × block).
    pub fn allgather(&mut self, send: &[u8], recv: &mut [u8]) {
        let b = send.len();
        let p = self.size();
        assert_eq!(recv.len(), b * p, "allgather: receive buffer of {} bytes for {p} blocks of {b}", recv.len());
        let plan = self.plan(1, 0, b);
        if !self.fits(&plan) {
            self.stats.fallbacks += 1;
            // SAFETY: caller's buffers of the asserted sizes.
            return unsafe { ffi::xt_mpi_allgather(send.as_ptr() as *const c_void, b as c_int, recv.as_mut_ptr() as *mut c_void, self.comm) };
        }
        self.begin();
        let work = self.work(self.rank);
        let at = if plan.frame == Frame::Blocks { self.rank * b } else { 0 };
        // SAFETY: p × b bytes fit the work buffer (fits()).
        unsafe { std::ptr::copy_nonoverlapping(send.as_ptr(), work.add(at), b) };
        self.run(&plan, work, &|_, _| {});
        // SAFETY: as above.
        let w = unsafe { std::slice::from_raw_parts(work, b * p) };
        if plan.frame == Frame::Rotated {
            for j in 0..p {
                let o = (self.rank + j) % p;
                recv[o * b..(o + 1) * b].copy_from_slice(&w[j * b..(j + 1) * b]);
            }
        } else {
            recv.copy_from_slice(w);
        }
    }

    /// Hybrid allreduce in place of `count` elements of MPI type `ty` with MPI
    /// operator `op` (handles as Fint). Returns MPI's error code (0 = success).
    pub fn allreduce(&mut self, buf: &mut [u8], count: usize, ty: Fint, op: Fint) -> c_int {
        let plan = self.plan(2, 0, buf.len());
        if !self.fits(&plan) {
            self.stats.fallbacks += 1;
            // SAFETY: caller's buffer of count elements.
            return unsafe { ffi::xt_mpi_allreduce(buf.as_mut_ptr() as *mut c_void, count as c_int, ty, op, self.comm) };
        }
        self.begin();
        let work = self.work(self.rank);
        // SAFETY: the message fits the work buffer.
        unsafe { std::ptr::copy_nonoverlapping(buf.as_ptr(), work, buf.len()) };
        let rc = std::cell::Cell::new(0);
        self.run(&plan, work, &|tmp, w| {
            // SAFETY: slot and work hold count elements; inout = tmp op inout.
            let e = unsafe { ffi::xt_reduce_local(tmp as *const c_void, w as *mut c_void, count as c_int, ty, op) };
            if e != 0 {
                rc.set(e);
            }
        });
        // SAFETY: as above.
        unsafe { std::ptr::copy_nonoverlapping(work, buf.as_mut_ptr(), buf.len()) };
        rc.get()
    }
}

impl Drop for Hybrid {
    /// MPI_Win_free is collective: call `free` where all members meet; a
    /// dropped layer leaves its window to MPI_Finalize.
    fn drop(&mut self) {}
}

impl Hybrid {
    /// Frees the window (collective over the subcluster).
    pub fn free(mut self) {
        if let Some(w) = self.win.take() {
            // SAFETY: made in new, freed once.
            unsafe { ffi::xt_win_free(w) };
        }
    }
}

/// MPI helpers for programs and tests built on this crate.
pub mod mpi {
    use super::*;
    pub fn world() -> Fint {
        // SAFETY: constant query.
        unsafe { ffi::xt_comm_world() }
    }
    pub fn rank(c: Fint) -> usize {
        // SAFETY: valid communicator.
        unsafe { ffi::xt_comm_rank(c) as usize }
    }
    pub fn size(c: Fint) -> usize {
        // SAFETY: valid communicator.
        unsafe { ffi::xt_comm_size(c) as usize }
    }
    pub fn wtime() -> f64 {
        // SAFETY: MPI is up.
        unsafe { ffi::xt_wtime() }
    }
    pub fn barrier(c: Fint) {
        // SAFETY: collective.
        unsafe { ffi::xt_barrier(c) }
    }
    pub fn abort(code: i32) -> ! {
        // SAFETY: MPI is up.
        unsafe { ffi::xt_abort(code) };
        std::process::exit(code)
    }
    /// Test handles: 0 int, 1 long long, 2 float, 3 double, 4 unsigned char.
    pub fn ty(t: i32) -> Fint {
        // SAFETY: constant query.
        unsafe { ffi::xt_type(t) }
    }
    /// 0 sum, 1 prod, 2 max, 3 min, 4 band, 5 bor, 6 bxor, 7 land, 8 lor.
    pub fn op(o: i32) -> Fint {
        // SAFETY: constant query.
        unsafe { ffi::xt_op(o) }
    }
    pub fn bcast(buf: &mut [u8], root: usize, c: Fint) {
        // SAFETY: caller's buffer.
        unsafe { ffi::xt_mpi_bcast(buf.as_mut_ptr() as *mut c_void, buf.len() as c_int, root as c_int, c) }
    }
    pub fn allgather(send: &[u8], recv: &mut [u8], c: Fint) {
        // SAFETY: caller's buffers (recv = size × send).
        unsafe { ffi::xt_mpi_allgather(send.as_ptr() as *const c_void, send.len() as c_int, recv.as_mut_ptr() as *mut c_void, c) }
    }
    pub fn allreduce(buf: &mut [u8], count: usize, ty: Fint, op: Fint, c: Fint) -> c_int {
        // SAFETY: caller's buffer of count elements.
        unsafe { ffi::xt_mpi_allreduce(buf.as_mut_ptr() as *mut c_void, count as c_int, ty, op, c) }
    }
    pub fn type_size(ty: Fint) -> usize {
        // SAFETY: valid type handle.
        unsafe { ffi::xt_type_size(ty) as usize }
    }
}
