//! Halo exchange on TCA (the `reflect` of a subcluster; Omni's
//! `xmp_reflect_hybrid.c`, seed 002 §6.1).
//!
//! A halo plan is built once per (array, widths, periodic), collectively over
//! the processes of one subcluster:
//!
//! - every process registers one receive region (its part of an
//!   `MPI_Win_allocate_shared` window): a header with, per array dimension, a
//!   notify counter and a `done` counter (each on its own cache line), a
//!   directory of the halos it receives (sender, tag, offset, bytes), then the
//!   halos' bytes, packed;
//! - the regions' handles are exchanged once with `MPI_Allgather`, and each
//!   sender finds the offset of each of its halos in the receiver's directory;
//! - each halo is classified by its shape ([`crate::classify`]) and becomes
//!   one descriptor of the sender's chain for that dimension: `Memcpy` (block),
//!   `Memcpy2D` (block-stride: rows of the block gathered by the engine), or a
//!   pack into a local buffer then `Memcpy` (stride: blocks of at most 8 B).
//!   The caller gives the halos in parity order (even node index: lower
//!   neighbour first), which the chain keeps.
//!
//! Each reflect then runs the chain ([`HaloPlan::start`]: put-only stores into
//! the receivers' regions, then one release increment of each receiver's notify
//! counter), and the receiver waits on its own counter ([`HaloPlan::finish`]).
//! The array itself is private memory (huge pages; a strided pass over 4 KiB
//! shared pages is 3-10x slower, shm.rs of xmpc-rt), not registered: so the
//! receiver copies the halos from its region into the shadow after the wait,
//! and raises `done`, which a sender checks before overwriting the region with
//! the next reflect's halos. A difference from PEACH2, where the region is the
//! array (docs/tca.md).

use crate::chain::{Chain, Desc, Handle};
use crate::classify::{classify, halo_shape, Order, Route, Shape};
use crate::ffi::{self, Fint};
use crate::rt::spin_until;
use std::cell::{Cell, RefCell};
use std::ffi::{c_int, c_long, c_void};
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

const LINE: usize = 64;
/// Directory entry: sender, tag, offset of the halo in the region, bytes.
const ENTRY: usize = 4 * 8;

/// Counts of what halo plans did on this thread (the report reads them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HaloStats {
    /// Chains run (one per dimension and reflect with a halo to send).
    pub chains: u64,
    pub memcpy: u64,
    pub memcpy2d: u64,
    /// Halos packed before their `Memcpy` (stride route).
    pub packed: u64,
    pub bytes: u64,
}

thread_local! {
    static STATS: Cell<HaloStats> = const { Cell::new(HaloStats { chains: 0, memcpy: 0, memcpy2d: 0, packed: 0, bytes: 0 }) };
}

/// What halo plans have done on this thread so far.
pub fn stats() -> HaloStats {
    STATS.with(|s| s.get())
}

/// One halo of a C-order block: `width` planes of dimension `dim` from index
/// `start` (allocated extents `extents`, shadows included, elements of `elem`
/// bytes), spanning the whole allocated extent of every other dimension.
/// Returns its byte offset in the block and its shape.
pub fn halo_at(extents: &[usize], dim: usize, start: usize, width: usize, elem: usize) -> Option<(usize, Shape)> {
    let shape = halo_shape(Order::C, extents, dim, width, elem)?;
    if start + width > extents[dim] {
        return None;
    }
    let inner: usize = extents[dim + 1..].iter().product::<usize>() * elem;
    Some((start * inner, shape))
}

/// A halo of this process: to send to, or receive from, `peer` (its rank in
/// the subcluster's communicator) on array dimension `dim`.
#[derive(Clone, Copy, Debug)]
pub struct Halo {
    pub dim: usize,
    pub peer: usize,
    /// Same on both sides of one halo (direction and dimension).
    pub tag: i64,
    /// Byte offset of the halo in the local block.
    pub off: usize,
    pub shape: Shape,
}

/// Copies `s`-shaped bytes at `src` into `dst`, packed (`gather`) or the reverse.
///
/// # Safety
/// `strided` holds the shape's extent, `packed` its `bytes()`.
unsafe fn copy_shape(s: Shape, strided: *mut u8, packed: *mut u8, gather: bool) {
    let b = s.blocklength;
    for i in 0..s.count {
        let (x, y) = (strided.add(i * s.stride), packed.add(i * b));
        let (from, to) = if gather { (x as *const u8, y) } else { (y as *const u8, x) };
        match b {
            8 => (to as *mut u64).write_unaligned((from as *const u64).read_unaligned()),
            4 => (to as *mut u32).write_unaligned((from as *const u32).read_unaligned()),
            _ => std::ptr::copy_nonoverlapping(from, to, b),
        }
    }
}

/// Where a descriptor's source lies: the block, or the pack buffer of halo `i`.
enum Src {
    Block,
    Packed { shape: Shape, off: usize, buf: RefCell<Box<[u8]>> },
}

#[derive(Default)]
struct Dim {
    chain: Chain,
    /// The chain's receivers, each notified once per reflect.
    receivers: Vec<usize>,
    srcs: Vec<Src>,
    /// Receives: offset in this region, shape, offset in the block.
    recvs: Vec<(usize, Shape, usize)>,
    /// Distinct senders of the receives (notifies per reflect).
    senders: u64,
    uses: Cell<u64>,
}

/// The TCA halos of one reflect plan (see the module doc).
pub struct HaloPlan {
    win: Cell<Option<Fint>>,
    /// Base of each subcluster member's region (index: its rank there).
    bases: Vec<*mut u8>,
    me: usize,
    dims: Vec<Dim>,
}

fn counter<'a>(base: *mut u8, line: usize) -> &'a AtomicU64 {
    // SAFETY: header lines are 64-byte aligned inside a live window part.
    unsafe { &*(base.add(line * LINE) as *const AtomicU64) }
}

/// Where a reflect's receive of dimension `dim` stands (the async form keeps it).
#[derive(Clone)]
pub struct Recv {
    plan: Rc<HaloPlan>,
    dim: usize,
    seq: u64,
    base: *mut u8,
}

impl Recv {
    /// The block the halos go to.
    pub fn base(&self) -> *mut u8 {
        self.base
    }
    /// Waits for this reflect's notifies, copies the halos into the shadows,
    /// releases the region.
    pub fn run(&self) {
        // SAFETY: the plan's block outlives its reflects (the array's plans are
        // dropped with the block, and not while a reflect is pending).
        unsafe { self.plan.finish(self.dim, self.seq, self.base) }
    }
}

impl HaloPlan {
    /// Collective over `comm` (a subcluster's shared-memory communicator, in
    /// which this process is `me`): registers this process's region for
    /// `recvs`, exchanges the handles, and builds the chains of `sends` (in
    /// the order given). `ndims`: the array's rank.
    pub fn new(comm: Fint, me: usize, ndims: usize, sends: &[Halo], recvs: &[Halo]) -> Result<Rc<HaloPlan>, String> {
        let hdr = 2 * ndims * LINE;
        let dir = hdr;
        let mut off = round(dir + 8 + ENTRY * recvs.len());
        let mut at = vec![];
        for r in recvs {
            at.push(off);
            off += round(r.shape.bytes());
        }
        // SAFETY: collective calls over `comm`; this process writes only its own
        // part (`off` bytes) before the barrier, and reads others' after it.
        unsafe {
            let n = ffi::xt_comm_size(comm) as usize;
            let mut base: *mut c_void = std::ptr::null_mut();
            let win = ffi::xt_win_shared(comm, off as c_long, &mut base);
            let base = base as *mut u8;
            std::ptr::write_bytes(base, 0, off);
            let d = base.add(dir) as *mut i64;
            *d = recvs.len() as i64;
            for (i, (r, &o)) in recvs.iter().zip(&at).enumerate() {
                let e = d.add(1 + 4 * i);
                *e = r.peer as i64;
                *e.add(1) = r.tag;
                *e.add(2) = o as i64;
                *e.add(3) = r.shape.bytes() as i64;
            }
            // the handle exchange, once (Omni: MPI_Allgather of tcaHandles)
            let mine = Handle { rank: me as u32, off: dir as u64, len: off as u64 };
            let mut handles = vec![Handle::default(); n];
            ffi::xt_allgather(&mine as *const Handle as *const c_void, std::mem::size_of::<Handle>() as c_int, handles.as_mut_ptr() as *mut c_void, comm);
            ffi::xt_win_sync(win);
            ffi::xt_barrier(comm);
            ffi::xt_win_sync(win);
            let bases: Vec<*mut u8> = (0..n).map(|r| ffi::xt_win_query(win, r as c_int) as *mut u8).collect();
            let mut dims: Vec<Dim> = (0..ndims).map(|_| Dim::default()).collect();
            for s in sends {
                let h = handles[s.peer];
                let pd = bases[s.peer].add(h.off as usize) as *const i64;
                let e = (0..*pd as usize)
                    .map(|i| pd.add(1 + 4 * i))
                    .find(|&e| *e == me as i64 && *e.add(1) == s.tag)
                    .ok_or("reflect: a neighbour in this subcluster has no matching halo (did all nodes run the same reflect?)")?;
                if *e.add(3) as usize != s.shape.bytes() {
                    return Err(format!("reflect: halo sizes differ between neighbours ({} and {} bytes)", *e.add(3), s.shape.bytes()));
                }
                let dst_off = *e.add(2) as usize;
                let dm = &mut dims[s.dim];
                let sh = s.shape;
                let full = "reflect: a halo chain exceeds 1024 descriptors".to_string();
                match classify(sh).1 {
                    Route::TcaMemcpy => {
                        dm.chain.memcpy(s.peer, dst_off, s.off, sh.bytes()).map_err(|_| full)?;
                        dm.srcs.push(Src::Block);
                    }
                    Route::TcaMemcpy2D => {
                        dm.chain.memcpy2d(s.peer, dst_off, sh.blocklength, s.off, sh.stride, sh.blocklength, sh.count).map_err(|_| full)?;
                        dm.srcs.push(Src::Block);
                    }
                    Route::PackTca => {
                        dm.chain.memcpy(s.peer, dst_off, 0, sh.bytes()).map_err(|_| full)?;
                        dm.srcs.push(Src::Packed { shape: sh, off: s.off, buf: RefCell::new(vec![0u8; sh.bytes()].into_boxed_slice()) });
                    }
                    Route::Mpi => return Err("reflect: a halo above 256 KB was given to TCA (it goes over MPI)".into()),
                }
            }
            for (r, &o) in recvs.iter().zip(&at) {
                let dm = &mut dims[r.dim];
                dm.recvs.push((o, r.shape, r.off));
            }
            for (k, dm) in dims.iter_mut().enumerate() {
                dm.receivers = dm.chain.receivers();
                let mut peers: Vec<usize> = recvs.iter().filter(|r| r.dim == k).map(|r| r.peer).collect();
                peers.sort_unstable();
                peers.dedup();
                dm.senders = peers.len() as u64;
            }
            Ok(Rc::new(HaloPlan { win: Cell::new(Some(win)), bases, me, dims }))
        }
    }

    /// Whether dimension `dim` has a halo on TCA here (then every reflect of the
    /// plan calls [`HaloPlan::start`] for it).
    pub fn has(&self, dim: usize) -> bool {
        self.dims.get(dim).is_some_and(|d| !d.chain.is_empty() || !d.recvs.is_empty())
    }

    /// Halos on TCA here, sends and receives counted apart.
    pub fn halos(&self) -> usize {
        self.dims.iter().map(|d| d.chain.descs().len() + d.recvs.len()).sum()
    }

    /// Descriptors of dimension `dim`'s chain (tests, tools).
    pub fn descs(&self, dim: usize) -> &[Desc] {
        self.dims[dim].chain.descs()
    }

    /// Runs dimension `dim`'s chain from the block at `base` (after each
    /// receiver has taken the previous reflect's halos), notifies the
    /// receivers, and returns the receive to finish.
    ///
    /// # Safety
    /// `base` is the block the plan was built for.
    pub unsafe fn start(self: &Rc<Self>, dim: usize, base: *mut u8) -> Recv {
        let dm = &self.dims[dim];
        let seq = dm.uses.get() + 1;
        dm.uses.set(seq);
        if !dm.chain.is_empty() {
            for &r in &dm.receivers {
                let done = counter(self.bases[r], 2 * dim + 1);
                spin_until(|| done.load(Ordering::Acquire) >= seq - 1);
            }
            let mut st = stats();
            for (d, src) in dm.chain.descs().iter().zip(&dm.srcs) {
                let mut packed = None;
                let s = match src {
                    Src::Block => base as *const u8,
                    Src::Packed { shape, off, buf } => {
                        let mut b = buf.borrow_mut();
                        let p = b.as_mut_ptr();
                        copy_shape(*shape, base.add(*off), p, true);
                        st.packed += 1;
                        packed = Some(b);
                        p as *const u8
                    }
                };
                let to = self.bases[d.dst()];
                match *d {
                    Desc::Memcpy { dst_off, src_off, len, .. } => {
                        std::ptr::copy_nonoverlapping(s.add(src_off), to.add(dst_off), len);
                        st.memcpy += 1;
                    }
                    Desc::Memcpy2D { dst_off, dst_pitch, src_off, src_pitch, width, height, .. } => {
                        let sh = Shape { count: height, blocklength: width, stride: src_pitch };
                        debug_assert_eq!(dst_pitch, width);
                        copy_shape(sh, s.add(src_off) as *mut u8, to.add(dst_off), true);
                        st.memcpy2d += 1;
                    }
                }
                st.bytes += d.bytes() as u64;
                drop(packed);
            }
            for &r in &dm.receivers {
                counter(self.bases[r], 2 * dim).fetch_add(1, Ordering::Release);
            }
            st.chains += 1;
            STATS.with(|x| x.set(st));
        }
        Recv { plan: self.clone(), dim, seq, base }
    }

    /// # Safety
    /// As for `start`.
    unsafe fn finish(&self, dim: usize, seq: u64, base: *mut u8) {
        let dm = &self.dims[dim];
        if dm.recvs.is_empty() {
            return;
        }
        let mine = self.bases[self.me];
        let c = counter(mine, 2 * dim);
        let want = seq * dm.senders;
        spin_until(|| c.load(Ordering::Acquire) >= want);
        for &(at, shape, off) in &dm.recvs {
            copy_shape(shape, base.add(off), mine.add(at), false);
        }
        counter(mine, 2 * dim + 1).store(seq, Ordering::Release);
    }

    /// MPI_Win_free: collective over the plan's communicator (call it where all
    /// members meet, as the array's free does); a plan dropped without it leaves
    /// its window to MPI_Finalize.
    pub fn free(&self) {
        if let Some(w) = self.win.take() {
            // SAFETY: made in new, freed once.
            unsafe { ffi::xt_win_free(w) };
        }
    }
}

fn round(n: usize) -> usize {
    n.div_ceil(LINE) * LINE
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The offset and shape of every halo of a small 3-D block cover exactly
    /// the planes they name, and gather/scatter round-trips them.
    #[test]
    fn halo_at_and_copy_shape_round_trip() {
        let ext = [5usize, 6, 7];
        let n: usize = ext.iter().product();
        for dim in 0..3 {
            for width in 1..=2 {
                for start in [0, ext[dim] - width] {
                    let (off, s) = halo_at(&ext, dim, start, width, 1).unwrap();
                    let mut block: Vec<u8> = (0..n).map(|i| i as u8).collect();
                    let mut packed = vec![0u8; s.bytes()];
                    // SAFETY: the shape lies inside the block (checked below).
                    unsafe { copy_shape(s, block.as_mut_ptr().add(off), packed.as_mut_ptr(), true) };
                    let want: Vec<u8> = (0..n)
                        .filter(|&i| {
                            let idx = [i / (ext[1] * ext[2]), i / ext[2] % ext[1], i % ext[2]];
                            idx[dim] >= start && idx[dim] < start + width
                        })
                        .map(|i| i as u8)
                        .collect();
                    assert_eq!(packed, want, "dim {dim} width {width} start {start}");
                    // scattered into an empty block: the halo's bytes, nothing else
                    let mut empty = vec![0u8; n];
                    // SAFETY: as above.
                    unsafe { copy_shape(s, empty.as_mut_ptr().add(off), packed.as_mut_ptr(), false) };
                    let back: Vec<u8> = (0..n).map(|i| if want.contains(&(i as u8)) { i as u8 } else { 0 }).collect();
                    assert_eq!(empty, back, "dim {dim} width {width} start {start}");
                }
            }
        }
        assert_eq!(halo_at(&ext, 0, 4, 2, 1), None);
    }
}
