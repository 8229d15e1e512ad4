//! Per-thread accounting tables: the hot path of every wrapped call.
//!
//! Each thread that makes MPI calls gets its own table (no locks, no atomics
//! on the hot path); tables are registered once and merged at
//! `MPI_Finalize`, when the MPI standard forbids concurrent MPI calls.
//! Memory: one `FnAcc` per function plus one `PeerAcc` per world rank and a
//! bounded communicator translation cache; independent of run length.

use crate::funcs::FUNCS;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use xmpc_prof_report::{FuncStats, PeerStats, SizeStats, NCLASSES};

/// Number of profiled functions; slot `NF` is the calibration slot.
pub const NF: usize = FUNCS.len();
/// Function id used by the overhead calibration (not reported).
pub const CALIB_FID: usize = NF;

/// Peer code for `MPI_ANY_SOURCE` (non-blocking receive posted with it).
pub const PEER_ANY: i32 = -1;

/// Branch-free size accumulator: `hist[0]` counts 0-byte calls,
/// `hist[1 + i]` is report class `i` (so the slot is `min(64 - lzcnt, 24)`).
#[derive(Clone, Copy, Debug)]
pub struct SizeAcc {
    pub count: u64,
    pub total: u64,
    pub min: u64,
    pub max: u64,
    pub hist: [u64; NCLASSES + 1],
}

impl Default for SizeAcc {
    fn default() -> Self {
        SizeAcc { count: 0, total: 0, min: u64::MAX, max: 0, hist: [0; NCLASSES + 1] }
    }
}

impl SizeAcc {
    #[inline(always)]
    pub fn add(&mut self, b: u64) {
        self.count += 1;
        self.total += b;
        self.min = self.min.min(b);
        self.max = self.max.max(b);
        let slot = ((64 - b.leading_zeros()) as usize).min(NCLASSES);
        self.hist[slot] += 1;
    }

    fn merge(&mut self, o: &SizeAcc) {
        self.count += o.count;
        self.total += o.total;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
        for (a, b) in self.hist.iter_mut().zip(o.hist.iter()) {
            *a += *b;
        }
    }

    /// To the report model (`zero` + 24 classes).
    pub fn to_stats(&self) -> SizeStats {
        let mut hist = [0u64; NCLASSES];
        hist.copy_from_slice(&self.hist[1..]);
        SizeStats { count: self.count, total: self.total, min: if self.count == 0 { 0 } else { self.min }, max: self.max, zero: self.hist[0], hist }
    }
}

#[derive(Clone, Debug)]
pub struct FnAcc {
    pub calls: u64,
    pub t_sum: u64,
    pub t_min: u64,
    pub t_max: u64,
    /// Calls shorter than the "unreliable" limit (see `set_short_limit`).
    pub short: u64,
    pub send: SizeAcc,
    pub recv: SizeAcc,
}

impl Default for FnAcc {
    fn default() -> Self {
        FnAcc { calls: 0, t_sum: 0, t_min: u64::MAX, t_max: 0, short: 0, send: SizeAcc::default(), recv: SizeAcc::default() }
    }
}

impl FnAcc {
    fn merge(&mut self, o: &FnAcc) {
        self.calls += o.calls;
        self.t_sum += o.t_sum;
        self.t_min = self.t_min.min(o.t_min);
        self.t_max = self.t_max.max(o.t_max);
        self.short += o.short;
        self.send.merge(&o.send);
        self.recv.merge(&o.recv);
    }
}

#[derive(Clone, Copy, Default, Debug)]
pub struct PeerAcc {
    pub send_count: u64,
    pub send_bytes: u64,
    pub recv_count: u64,
    pub recv_bytes: u64,
}

/// Translates a communicator key to the world ranks of its (remote) group.
pub type Translator = fn(usize, &mut Vec<i32>) -> bool;

static WORLD_KEY: AtomicUsize = AtomicUsize::new(0);
static WORLD_SIZE: AtomicUsize = AtomicUsize::new(0);
static PEERS_ON: AtomicBool = AtomicBool::new(true);
/// Calls with `dt < SHORT_TICKS` are counted in `FnAcc::short`.
static SHORT_TICKS: AtomicU64 = AtomicU64::new(0);
/// Bumped by every `MPI_Comm_free`: handles are reused, caches must drop.
static COMM_EPOCH: AtomicU64 = AtomicU64::new(0);
static TRANSLATOR: Mutex<Option<Translator>> = Mutex::new(None);
static TABLES: Mutex<Vec<usize>> = Mutex::new(Vec::new());

const CACHE_CAP: usize = 64;

/// Communicator → world-rank translation cache (per thread).
struct CommCache {
    epoch: u64,
    last: usize, // index into entries of the last hit, usize::MAX = none
    entries: Vec<(usize, Vec<i32>)>,
    next_victim: usize,
}

impl CommCache {
    fn lookup(&mut self, key: usize, rank: i32) -> i32 {
        let epoch = COMM_EPOCH.load(Ordering::Relaxed);
        if epoch != self.epoch {
            self.entries.clear();
            self.last = usize::MAX;
            self.epoch = epoch;
        }
        let idx = if self.last < self.entries.len() && self.entries[self.last].0 == key {
            self.last
        } else if let Some(i) = self.entries.iter().position(|e| e.0 == key) {
            i
        } else {
            let mut map = Vec::new();
            let tr = *TRANSLATOR.lock().unwrap_or_else(|e| e.into_inner());
            match tr {
                Some(f) if f(key, &mut map) => {}
                _ => return -1,
            }
            if self.entries.len() < CACHE_CAP {
                self.entries.push((key, map));
                self.entries.len() - 1
            } else {
                let v = self.next_victim % CACHE_CAP;
                self.next_victim = v + 1;
                self.entries[v] = (key, map);
                v
            }
        };
        self.last = idx;
        self.entries[idx].1.get(rank as usize).copied().unwrap_or(-1)
    }
}

/// Time and bytes of one call site (return address) of one function.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct SiteAcc {
    pub calls: u64,
    pub t_sum: u64,
    pub t_max: u64,
    pub bytes: u64,
}

/// The call-site key: return address (user space, below 2^56) and function id.
#[inline(always)]
fn site_key(fid: usize, ra: usize) -> u64 {
    ((ra as u64) << 8) | (fid as u64 & 0xff)
}

/// The (return address, function id) of a site key.
pub fn site_of(key: u64) -> (usize, usize) {
    ((key >> 8) as usize, (key & 0xff) as usize)
}

/// A cheap hasher for site keys (addresses: multiply and fold).
#[derive(Default)]
pub struct SiteHasher(u64);

impl std::hash::Hasher for SiteHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    #[inline(always)]
    fn write_u64(&mut self, k: u64) {
        let h = k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 29);
    }
}

pub type SiteMap = std::collections::HashMap<u64, SiteAcc, std::hash::BuildHasherDefault<SiteHasher>>;

pub struct Table {
    pub f: Vec<FnAcc>,
    pub peers: Vec<PeerAcc>,
    pub any: PeerAcc,
    /// Per call site (mpiP): bounded by the number of MPI call instructions in the program.
    pub sites: SiteMap,
    cache: CommCache,
}

impl Table {
    pub fn new(world_size: usize) -> Table {
        Table {
            f: vec![FnAcc::default(); NF + 1],
            peers: vec![PeerAcc::default(); world_size],
            any: PeerAcc::default(),
            sites: SiteMap::default(),
            cache: CommCache { epoch: 0, last: usize::MAX, entries: Vec::new(), next_victim: 0 },
        }
    }

    pub fn reset(&mut self) {
        for f in self.f.iter_mut() {
            *f = FnAcc::default();
        }
        for p in self.peers.iter_mut() {
            *p = PeerAcc::default();
        }
        self.any = PeerAcc::default();
        self.sites.clear();
    }

    /// Call-site record: `ra` is the return address into the caller (0: unknown, not kept).
    #[inline(always)]
    pub fn site(&mut self, fid: usize, ra: usize, dt: u64, bytes: u64) {
        if ra == 0 {
            return;
        }
        let s = self.sites.entry(site_key(fid, ra)).or_default();
        s.calls += 1;
        s.t_sum += dt;
        s.t_max = s.t_max.max(dt);
        s.bytes += bytes;
    }

    #[inline(always)]
    fn time(&mut self, fid: usize, dt: u64) -> &mut FnAcc {
        let short = (dt < SHORT_TICKS.load(Ordering::Relaxed)) as u64;
        let f = &mut self.f[fid];
        f.calls += 1;
        f.t_sum += dt;
        f.t_min = f.t_min.min(dt);
        f.t_max = f.t_max.max(dt);
        f.short += short;
        f
    }

    #[inline(always)]
    pub fn rec(&mut self, fid: usize, dt: u64) {
        self.time(fid, dt);
    }

    #[inline(always)]
    pub fn rec_b(&mut self, fid: usize, dt: u64, sbytes: i64, rbytes: i64) {
        let f = self.time(fid, dt);
        if sbytes >= 0 {
            f.send.add(sbytes as u64);
        }
        if rbytes >= 0 {
            f.recv.add(rbytes as u64);
        }
    }

    #[inline(always)]
    fn world(&mut self, comm: usize, r: i32) -> i32 {
        if comm == WORLD_KEY.load(Ordering::Relaxed) {
            return r;
        }
        self.cache.lookup(comm, r)
    }

    /// Point-to-point record. Peers are comm-local ranks; `PEER_ANY` for an
    /// `MPI_ANY_SOURCE` receive; other negatives (PROC_NULL) are not peers.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn rec_p(&mut self, fid: usize, dt: u64, sbytes: i64, speer: i32, rbytes: i64, rpeer: i32, comm: usize) {
        self.rec_b(fid, dt, sbytes, rbytes);
        if !PEERS_ON.load(Ordering::Relaxed) {
            return;
        }
        if speer >= 0 {
            let w = self.world(comm, speer);
            if let Some(p) = self.peers.get_mut(w as usize) {
                p.send_count += 1;
                p.send_bytes += sbytes.max(0) as u64;
            }
        }
        if rpeer >= 0 {
            let w = self.world(comm, rpeer);
            if let Some(p) = self.peers.get_mut(w as usize) {
                p.recv_count += 1;
                p.recv_bytes += rbytes.max(0) as u64;
            }
        } else if rpeer == PEER_ANY {
            self.any.recv_count += 1;
            self.any.recv_bytes += rbytes.max(0) as u64;
        }
    }

    fn merge(&mut self, o: &Table) {
        for (a, b) in self.f.iter_mut().zip(o.f.iter()) {
            a.merge(b);
        }
        for (a, b) in self.peers.iter_mut().zip(o.peers.iter()) {
            a.send_count += b.send_count;
            a.send_bytes += b.send_bytes;
            a.recv_count += b.recv_count;
            a.recv_bytes += b.recv_bytes;
        }
        self.any.recv_count += o.any.recv_count;
        self.any.recv_bytes += o.any.recv_bytes;
        for (k, v) in &o.sites {
            let s = self.sites.entry(*k).or_default();
            s.calls += v.calls;
            s.t_sum += v.t_sum;
            s.t_max = s.t_max.max(v.t_max);
            s.bytes += v.bytes;
        }
    }

    /// Convert to the report model (ticks → ns).
    pub fn to_stats(&self, ticks_per_ns: f64) -> (Vec<FuncStats>, Vec<PeerStats>) {
        let ns = |t: u64| t as f64 / ticks_per_ns;
        let funcs = FUNCS
            .iter()
            .zip(self.f.iter())
            .filter(|(_, f)| f.calls > 0)
            .map(|(name, f)| FuncStats {
                name: name.to_string(),
                calls: f.calls,
                time_total_ns: ns(f.t_sum),
                time_min_ns: ns(f.t_min),
                time_max_ns: ns(f.t_max),
                short_calls: f.short,
                send: f.send.to_stats(),
                recv: f.recv.to_stats(),
            })
            .collect();
        let mut peers: Vec<PeerStats> = self
            .peers
            .iter()
            .enumerate()
            .filter(|(_, p)| p.send_count + p.recv_count > 0)
            .map(|(i, p)| PeerStats { peer: i as i64, send_count: p.send_count, send_bytes: p.send_bytes, recv_count: p.recv_count, recv_bytes: p.recv_bytes })
            .collect();
        if self.any.recv_count > 0 {
            peers.push(PeerStats { peer: PEER_ANY as i64, send_count: 0, send_bytes: 0, recv_count: self.any.recv_count, recv_bytes: self.any.recv_bytes });
        }
        (funcs, peers)
    }
}

thread_local! {
    static TAB: Cell<*mut Table> = const { Cell::new(std::ptr::null_mut()) };
}

/// Set the process-wide parameters (at `MPI_Init`, or by benchmarks).
pub fn configure(world_key: usize, world_size: usize, peers: bool, tr: Option<Translator>) {
    WORLD_KEY.store(world_key, Ordering::Relaxed);
    WORLD_SIZE.store(world_size, Ordering::Relaxed);
    PEERS_ON.store(peers, Ordering::Relaxed);
    *TRANSLATOR.lock().unwrap_or_else(|e| e.into_inner()) = tr;
}

/// Calls shorter than `ticks` count as "short" (unreliable limit in ticks).
pub fn set_short_limit(ticks: u64) {
    SHORT_TICKS.store(ticks, Ordering::Relaxed);
}

/// A communicator was freed: drop every thread's translation cache.
pub fn comm_freed() {
    COMM_EPOCH.fetch_add(1, Ordering::Relaxed);
}

#[cold]
fn new_table() -> *mut Table {
    let t = Box::into_raw(Box::new(Table::new(WORLD_SIZE.load(Ordering::Relaxed))));
    TABLES.lock().unwrap_or_else(|e| e.into_inner()).push(t as usize);
    t
}

/// Run `f` on this thread's table (created on first use).
#[inline(always)]
pub fn with_table<R>(f: impl FnOnce(&mut Table) -> R) -> R {
    // Only the pointer read happens inside `LocalKey::with`, so the record
    // itself inlines into the caller.
    let mut p = TAB.with(|c| c.get());
    if p.is_null() {
        p = new_table();
        TAB.with(|c| c.set(p));
    }
    // SAFETY: the table is only touched by its own thread, except by
    // `merged`/`reset_all`, which run when no MPI call is in progress.
    f(unsafe { &mut *p })
}

/// Sum of all threads' tables.
pub fn merged() -> Table {
    let mut out = Table::new(WORLD_SIZE.load(Ordering::Relaxed));
    for &p in TABLES.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        // SAFETY: see `with_table`.
        out.merge(unsafe { &*(p as *const Table) });
    }
    out
}

/// Zero every thread's table (after calibration).
pub fn reset_all() {
    for &p in TABLES.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        // SAFETY: see `with_table`.
        unsafe { (*(p as *mut Table)).reset() };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tr(key: usize, out: &mut Vec<i32>) -> bool {
        // comm 7: ranks reversed in a world of 4
        if key == 7 {
            out.extend([3, 2, 1, 0]);
            true
        } else {
            false
        }
    }

    #[test]
    fn accounting() {
        configure(1, 4, true, Some(tr));
        let mut t = Table::new(4);
        t.rec_p(0, 10, 0, 1, -1, -2, 1);
        t.rec_p(0, 30, 1 << 20, 1, -1, -2, 1);
        t.rec_p(0, 20, 5, 0, -1, -2, 7); // comm 7 rank 0 = world 3
        t.rec_p(4, 5, -1, -2, 64, PEER_ANY, 1);
        t.rec_p(4, 5, -1, -2, 64, 3, 7); // world 0
        let f = &t.f[0];
        assert_eq!((f.calls, f.t_sum, f.t_min, f.t_max), (3, 60, 10, 30));
        let s = f.send.to_stats();
        assert_eq!(s.count, 3);
        assert_eq!(s.zero, 1);
        assert_eq!(s.hist[20], 1);
        assert_eq!(s.hist[2], 1);
        assert_eq!((s.min, s.max, s.total), (0, 1 << 20, (1 << 20) + 5));
        // the branch-free slot agrees with the model's class function
        for b in [1u64, 2, 3, 7, 8, 1023, 1024, (8 << 20) - 1, 8 << 20, u64::MAX] {
            let mut a = SizeAcc::default();
            a.add(b);
            let mut m = SizeStats::default();
            m.add(b);
            assert_eq!(a.to_stats(), m, "{b}");
        }
        assert_eq!(t.peers[1].send_count, 2);
        assert_eq!(t.peers[1].send_bytes, 1 << 20);
        assert_eq!(t.peers[3].send_count, 1);
        assert_eq!(t.any.recv_count, 1);
        assert_eq!(t.peers[0].recv_bytes, 64);
        comm_freed();
        t.rec_p(0, 1, 1, 1, -1, -2, 9); // untranslatable: no peer entry
        assert_eq!(t.peers.iter().map(|p| p.send_count).sum::<u64>(), 3);
        t.site(0, 0x401234, 10, 8);
        t.site(0, 0x401234, 30, 8);
        t.site(4, 0x401234, 5, 0);
        t.site(4, 0, 5, 0); // unknown address: not kept
        assert_eq!(t.sites.len(), 2);
        assert_eq!(t.sites[&site_key(0, 0x401234)], SiteAcc { calls: 2, t_sum: 40, t_max: 30, bytes: 16 });
        assert_eq!(site_of(site_key(4, 0x401234)), (0x401234, 4));
        let (funcs, peers) = t.to_stats(2.0);
        assert_eq!(funcs[0].time_total_ns, 30.5);
        assert_eq!(peers.last().unwrap().peer, -1);
    }
}
