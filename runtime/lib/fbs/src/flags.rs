//! The FBS rule over a set of flags in memory the caller provides (a heap
//! block for threads, an `MPI_Win_allocate_shared` window for processes).
//!
//! Participant `i` owns flag `i`, which holds the number (mod 3) of the last
//! barrier point it reached. Arriving at point `k` it stores `k` and waits
//! until every other flag holds `k` or `k + 1`: a participant that has not
//! arrived still shows `k - 1`, and none can be at `k + 2` before this one
//! reached `k + 1`, so three values tell current, next and "not yet" apart.
//! No lock, no read-modify-write on the fast path, and each flag's line is
//! written once per barrier point (by its owner).
//!
//! Waiting is spin, then yield, then sleep on the awaited flag's futex. A
//! per-flag sleeper count next to the flag makes the wake-up free when nobody
//! sleeps: the owner stores its flag and then reads the count, a sleeper
//! raises the count and then re-reads the flag, with a full fence between
//! the two accesses on each side, so one of the two always sees the other (no
//! lost wake-up); the futex call itself re-checks the value in the kernel.
//! Threads make the fence asymmetric: the owner's side is only a compiler
//! fence, the sleeper's side `membarrier(PRIVATE_EXPEDITED)`, which runs a
//! full fence on every running thread of the process (the pattern of folly's
//! asymmetric barrier), so the fast path has no locked instruction; processes
//! sharing a window, and kernels without membarrier, use SeqCst on both sides.

use std::sync::atomic::{AtomicU32, Ordering};

/// One cache line of the machines we target, doubled: adjacent-line prefetch
/// on x86 pulls lines in pairs, and POWER (the paper's machine) has 128-byte
/// lines.
pub const LINE: usize = 128;

/// Where the flags lie (the paper's Fig. 3-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub enum Layout {
    /// Each flag on its own 128-byte line (the paper's choice, default).
    Separate = 0,
    /// All flags packed into one line (the paper's "same line" variant,
    /// kept for the comparison: every arrival invalidates every reader).
    Packed = 1,
}

/// Bytes a flag area for `n` participants needs (a multiple of [`LINE`]).
pub fn area_bytes(n: usize, layout: Layout) -> usize {
    match layout {
        Layout::Separate => n * LINE,
        // flags in the first line(s), sleeper counts in the following ones
        Layout::Packed => 2 * (n * 4).div_ceil(LINE) * LINE,
    }
}

/// How a waiter sleeps once spinning and yielding did not see the flag
/// change: on a futex private to the process (threads) or on one shared
/// between processes (a shared-memory window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sleep {
    Private,
    Shared,
}

/// The longest a waiter keeps yielding before it sleeps.
const YIELD_TIME: std::time::Duration = std::time::Duration::from_micros(50);

/// Spin and yield budget before sleeping (yielding also stops after 50 µs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Flag checks (with a `spin_loop` hint between) before yielding.
    pub spins: u32,
    /// `sched_yield` calls before sleeping on the futex.
    pub yields: u32,
}

impl Default for Policy {
    fn default() -> Self {
        // 256 checks with a pause each: 5-10 µs on current x86, well above a
        // 2-core barrier's 0.1-0.3 µs; a peer that is later than that has
        // most likely lost its core (other processes), and spinning on would
        // keep it off. Then sleep at once: with a core per participant a
        // yield only hands the core to another program, for a whole time
        // slice on a busy machine (a DAXPY step took 6 ms instead of 0.25),
        // while a woken sleeper gets it back promptly. A stress run on a loaded 2-core machine
        // (load 12) took 108 µs per 2-thread point with 2000 spins.
        Policy { spins: 256, yields: 0 }
    }
}

impl Policy {
    /// The default, unless `n` participants outnumber the CPUs this process
    /// may use: then some peer is always waiting for a core, and spinning
    /// only delays it, so waiters yield almost at once. For threads of one
    /// process; processes ask [`Policy::for_cpus`] with the CPUs of the whole
    /// team (a process bound to one core sees one CPU, though each peer has its own).
    pub fn for_participants(n: usize) -> Policy {
        Policy::for_cpus(n, std::thread::available_parallelism().map_or(1, |c| c.get()))
    }

    /// The default, unless `n` participants outnumber the `cpus` they may run on together.
    pub fn for_cpus(n: usize, cpus: usize) -> Policy {
        if n > cpus {
            // a peer of this team is waiting for this core: yield to it
            Policy { spins: 16, yields: 64 }
        } else {
            Policy::default()
        }
    }
}

/// A view of `n` flags at `base` in the given layout.
///
/// Copyable: it is a pointer and a shape. The memory must stay valid and
/// [`LINE`]-aligned while views of it are used.
#[derive(Clone, Copy, Debug)]
pub struct Flags {
    base: *mut u8,
    n: usize,
    layout: Layout,
    sleep: Sleep,
    policy: Policy,
    idle: Option<fn()>,
    /// Asymmetric fence (private sleep and membarrier available).
    asym: bool,
}

// SAFETY: all accesses through a view are atomic.
unsafe impl Send for Flags {}
unsafe impl Sync for Flags {}

#[inline]
fn ready(v: u32, k: u32) -> bool {
    v == k || v == next(k)
}

#[inline]
fn next(k: u32) -> u32 {
    if k == 2 {
        0
    } else {
        k + 1
    }
}

impl Flags {
    /// # Safety
    /// `base` points to [`area_bytes`]`(n, layout)` bytes, [`LINE`]-aligned,
    /// zeroed before any participant's first `wait`, valid (and used only
    /// through views of the same shape) while any view of it is used.
    pub unsafe fn from_raw(base: *mut u8, n: usize, layout: Layout, sleep: Sleep, policy: Policy) -> Flags {
        let asym = sleep == Sleep::Private && futex::membarrier_ready();
        Flags { base, n, layout, sleep, policy, idle: None, asym }
    }

    /// Calls `f` while waiting once the spinning is over: at each yield, and
    /// every 100 µs while sleeping (which then sleeps with a time-out). The
    /// XMP runtime passes an MPI progress call, so a peer blocked in MPI on a
    /// message from a process waiting here still gets it, as in MPI_Barrier.
    pub fn with_idle(mut self, f: fn()) -> Flags {
        self.idle = Some(f);
        self
    }

    pub fn participants(&self) -> usize {
        self.n
    }

    #[inline]
    fn flag(&self, i: usize) -> &AtomicU32 {
        let off = match self.layout {
            Layout::Separate => i * LINE,
            Layout::Packed => i * 4,
        };
        // SAFETY: inside the area (from_raw's contract), 4-byte aligned.
        unsafe { &*(self.base.add(off) as *const AtomicU32) }
    }

    #[inline]
    fn sleepers(&self, i: usize) -> &AtomicU32 {
        let off = match self.layout {
            Layout::Separate => i * LINE + 4,
            Layout::Packed => area_bytes(self.n, Layout::Packed) / 2 + i * 4,
        };
        // SAFETY: as for flag.
        unsafe { &*(self.base.add(off) as *const AtomicU32) }
    }

    /// Barrier point for participant `me`: returns once every participant has
    /// reached this point. Each participant must call it with its own `me`
    /// (one caller per index at a time).
    #[inline]
    pub fn wait(&self, me: usize) {
        let k = self.arrive(me);
        self.depart(me, k);
    }

    /// First half of [`wait`](Self::wait): announces that `me` reached the
    /// next point and returns that point's number, for [`depart`](Self::depart).
    #[inline]
    pub fn arrive(&self, me: usize) -> u32 {
        assert!(me < self.n, "FBS participant {me} out of 0..{}", self.n);
        let mine = self.flag(me);
        let k = next(mine.load(Ordering::Relaxed));
        // The release of everything `me` wrote before the barrier. The store
        // must be ordered before the sleeper-count load (see module doc):
        // private sleepers issue the heavy side of an asymmetric fence
        // (membarrier) before they re-check, so a plain store and a compiler
        // fence suffice here and the load of the next flag overlaps the
        // store's cache-line transfer; otherwise both are SeqCst (an xchg).
        if self.asym {
            mine.store(k, Ordering::Release);
            std::sync::atomic::compiler_fence(Ordering::SeqCst);
        } else {
            mine.store(k, Ordering::SeqCst);
        }
        if self.sleepers(me).load(Ordering::SeqCst) != 0 {
            self.wake(mine);
        }
        k
    }

    /// Second half of [`wait`](Self::wait): waits until all others reached point `k`.
    #[inline]
    pub fn depart(&self, me: usize, k: u32) {
        // start after me, so participants do not all poll flag 0 first
        for d in 1..self.n {
            let j = (me + d) % self.n;
            let f = self.flag(j);
            if !ready(f.load(Ordering::Acquire), k) {
                self.wait_slow(j, k);
            }
        }
    }

    /// Waits for flag `j` to reach point `k` without arriving (a release
    /// watcher: e.g. the node's processes waiting for their leader).
    pub fn wait_for(&self, j: usize, k: u32) {
        if !ready(self.flag(j).load(Ordering::Acquire), k) {
            self.wait_slow(j, k);
        }
    }

    /// The point number participant `i` last reached (0 before any).
    pub fn point(&self, i: usize) -> u32 {
        self.flag(i).load(Ordering::Acquire)
    }

    #[cold]
    fn wait_slow(&self, j: usize, k: u32) {
        let f = self.flag(j);
        for _ in 0..self.policy.spins {
            std::hint::spin_loop();
            if ready(f.load(Ordering::Acquire), k) {
                return;
            }
        }
        // yields stop after YIELD_TIME too: on a loaded machine one yield can
        // hand the core away for a whole time slice, and a sleeper that is
        // woken gets the core back sooner than a task that yielded
        let t0 = std::time::Instant::now();
        for _ in 0..self.policy.yields {
            if t0.elapsed() > YIELD_TIME {
                break;
            }
            if let Some(idle) = self.idle {
                idle();
            }
            std::thread::yield_now();
            if ready(f.load(Ordering::Acquire), k) {
                return;
            }
        }
        let s = self.sleepers(j);
        s.fetch_add(1, Ordering::SeqCst);
        if self.asym {
            // every running thread of this process passes a full fence: an
            // owner's plain flag store is now visible, or its later load of
            // the sleeper count sees this increment
            futex::membarrier();
        }
        loop {
            let v = f.load(Ordering::SeqCst);
            if ready(v, k) {
                break;
            }
            self.sleep_on(f, v);
            if let Some(idle) = self.idle {
                idle();
            }
        }
        s.fetch_sub(1, Ordering::SeqCst);
    }

    fn sleep_on(&self, f: &AtomicU32, v: u32) {
        let nap = self.idle.map(|_| std::time::Duration::from_micros(100));
        match (self.sleep, nap) {
            (Sleep::Private, None) => atomic_wait::wait(f, v),
            (Sleep::Private, Some(t)) => futex::wait(f, v, true, Some(t)),
            (Sleep::Shared, t) => futex::wait(f, v, false, t),
        }
    }

    fn wake(&self, f: &AtomicU32) {
        match self.sleep {
            Sleep::Private => atomic_wait::wake_all(f),
            Sleep::Shared => futex::wake_all_shared(f),
        }
    }
}

/// Process-shared futex: `atomic-wait` only offers the private (per-process)
/// kind, which does not wake a sleeper in another process mapping the same
/// page.
mod futex {
    use std::sync::atomic::AtomicU32;

    /// FUTEX_WAIT (private or shared) with an optional relative time-out.
    #[cfg(target_os = "linux")]
    pub fn wait(a: &AtomicU32, v: u32, private: bool, t: Option<std::time::Duration>) {
        let op = if private { libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG } else { libc::FUTEX_WAIT };
        let ts = t.map(|t| libc::timespec { tv_sec: t.as_secs() as _, tv_nsec: t.subsec_nanos() as _ });
        let tp = ts.as_ref().map_or(std::ptr::null(), |t| t as *const libc::timespec);
        // SAFETY: FUTEX_WAIT on a valid, aligned u32; returns at once if *a != v.
        unsafe {
            libc::syscall(libc::SYS_futex, a.as_ptr(), op, v, tp);
        }
    }

    #[cfg(target_os = "linux")]
    pub fn wake_all_shared(a: &AtomicU32) {
        // SAFETY: FUTEX_WAKE on a valid, aligned u32.
        unsafe {
            libc::syscall(libc::SYS_futex, a.as_ptr(), libc::FUTEX_WAKE, i32::MAX);
        }
    }

    const CMD_QUERY: libc::c_int = 0;
    const CMD_PRIVATE_EXPEDITED: libc::c_int = 1 << 3;
    const CMD_REGISTER_PRIVATE_EXPEDITED: libc::c_int = 1 << 4;

    /// Whether this process may use `membarrier(PRIVATE_EXPEDITED)`
    /// (registered once; Linux >= 4.14).
    #[cfg(target_os = "linux")]
    pub fn membarrier_ready() -> bool {
        static OK: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *OK.get_or_init(|| {
            if std::env::var("XMPC_FBS_MEMBARRIER").is_ok_and(|v| v.trim() == "0") {
                return false;
            }
            // SAFETY: membarrier takes plain integers.
            unsafe {
                let cmds = libc::syscall(libc::SYS_membarrier, CMD_QUERY, 0, 0);
                cmds >= 0 && cmds as libc::c_int & CMD_PRIVATE_EXPEDITED != 0 && libc::syscall(libc::SYS_membarrier, CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0
            }
        })
    }

    #[cfg(target_os = "linux")]
    pub fn membarrier() {
        // SAFETY: registered in membarrier_ready.
        let r = unsafe { libc::syscall(libc::SYS_membarrier, CMD_PRIVATE_EXPEDITED, 0, 0) };
        assert_eq!(r, 0, "membarrier failed after registration");
    }

    #[cfg(not(target_os = "linux"))]
    pub fn membarrier_ready() -> bool {
        false
    }

    #[cfg(not(target_os = "linux"))]
    pub fn membarrier() {}

    // Elsewhere: no cross-process futex; the sleeper naps and re-checks.
    #[cfg(not(target_os = "linux"))]
    pub fn wait(a: &AtomicU32, v: u32, _private: bool, _t: Option<std::time::Duration>) {
        if a.load(std::sync::atomic::Ordering::SeqCst) == v {
            std::thread::sleep(std::time::Duration::from_micros(50));
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub fn wake_all_shared(_: &AtomicU32) {}
}
