//! The `contexts` back end: every rank is a user-level context (a `corosensei`
//! coroutine) on one OS thread, resumed by BSIM's own loop in virtual-time order
//! (the ready rank with the earliest published clock first, lowest rank on ties).
//! A rank gives the thread back only where a thread would block: in
//! `Sim::sleep` (waiting for a message, a rendezvous, a collective or a decision)
//! and after an unsuccessful poll (`Test*`, `Iprobe`).
//!
//! Stacks: one anonymous `MAP_NORESERVE` region holds every rank's stack
//! (`BSIM_STACK_KB` each), so only the pages a rank touches are ever committed;
//! transparent huge pages are turned off for it (one touched byte must not
//! commit 2 MiB). A guard page (`PROT_NONE`) sits below each stack when the
//! process may have two mappings per rank (`vm.max_map_count`); otherwise, or
//! with `BSIM_GUARD=0`, the stacks have no guard and a note says so. A finished
//! rank's stack is returned to the kernel (`MADV_DONTNEED`).
//!
//! Per-rank variables: the skeletonizer puts file-scope and `static` variables in
//! the linker section `bsim_rank` (`BSIM_RANK_VAR`, include/lmpi.h). The process
//! main hands its bounds to `bsim_rank_section`; on every switch to another rank
//! the loop saves the section's bytes into the rank that ran and loads the
//! image of the rank that runs next (each rank starts from the initial image).

use super::engine::{self, Sim};
use super::rank::Rank;
use super::sched::{READY, RUNNING, Y, YIELDER};
use crate::output::RankResult;
use corosensei::stack::{Stack, StackPointer};
use corosensei::{Coroutine, CoroutineResult};
use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::ffi::{c_char, c_int};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

const PAGE: usize = 4096;

static SEC_START: AtomicUsize = AtomicUsize::new(0);
static SEC_STOP: AtomicUsize = AtomicUsize::new(0);

/// The bounds of section `bsim_rank` (`run::bsim_rank_section`; null when the
/// program has no per-rank variable).
pub fn set_rank_section(start: *mut c_char, stop: *mut c_char) {
    if !start.is_null() && stop as usize > start as usize {
        SEC_START.store(start as usize, SeqCst);
        SEC_STOP.store(stop as usize, SeqCst);
    }
}

/// Bytes of per-rank variables in section `bsim_rank` (0: none).
pub fn rank_section_len() -> usize {
    SEC_STOP.load(SeqCst) - SEC_START.load(SeqCst)
}

/// One rank's stack: a slice of the shared region (guard page at the bottom).
struct SliceStack {
    top: usize,
    bottom: usize,
}

// SAFETY: `top` and `bottom` bound memory of the region, aligned to pages, which
// lives until the process exits; no two stacks overlap.
unsafe impl Stack for SliceStack {
    fn base(&self) -> StackPointer {
        NonZeroUsize::new(self.top).unwrap()
    }
    fn limit(&self) -> StackPointer {
        NonZeroUsize::new(self.bottom).unwrap()
    }
}

struct Region {
    base: usize,
    stack: usize,
    guard: bool,
}

fn max_map_count() -> Option<usize> {
    std::fs::read_to_string("/proc/sys/vm/max_map_count").ok()?.trim().parse().ok()
}

impl Region {
    fn new(n: usize, stack: usize, guard: Option<bool>, quiet: bool) -> Result<Region, String> {
        let stack = stack.div_ceil(PAGE) * PAGE;
        let len = n.checked_mul(stack).ok_or("BSIM_STACK_KB x ranks overflows the address space")?;
        // SAFETY: a fresh private anonymous mapping.
        let p = unsafe {
            libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE, -1, 0)
        };
        if p == libc::MAP_FAILED {
            return Err(format!("cannot reserve {n} stacks of {} KiB ({} GiB of address space): {}", stack / 1024, len >> 30, std::io::Error::last_os_error()));
        }
        // SAFETY: the range was just mapped.
        unsafe { libc::madvise(p, len, libc::MADV_NOHUGEPAGE) };
        let base = p as usize;
        // a guard page per stack splits the region into 2 mappings per rank
        let fits = max_map_count().is_some_and(|m| 2 * n + 4096 <= m);
        let guard = match guard {
            Some(g) => {
                if g && !fits {
                    return Err(format!(
                        "BSIM_GUARD=1: {n} ranks need {} memory mappings with guard pages, vm.max_map_count is {} (raise it: sysctl vm.max_map_count={})",
                        2 * n + 4096,
                        max_map_count().unwrap_or(0),
                        2 * n + 65536
                    ));
                }
                g
            }
            None => {
                if !fits && !quiet {
                    eprintln!(
                        "bsim: note: {n} ranks: stacks without guard pages (2 mappings per rank exceed vm.max_map_count = {}; `sysctl vm.max_map_count={}` restores them); a stack overflow may then corrupt another rank",
                        max_map_count().unwrap_or(0),
                        2 * n + 65536
                    );
                }
                fits
            }
        };
        if guard {
            for i in 0..n {
                // SAFETY: the lowest page of stack i, inside the mapping.
                let rc = unsafe { libc::mprotect((base + i * stack) as *mut libc::c_void, PAGE, libc::PROT_NONE) };
                if rc != 0 {
                    return Err(format!("cannot make the guard page of rank {i}'s stack: {}", std::io::Error::last_os_error()));
                }
            }
        }
        if guard {
            super::fault::set_region(base, stack, n);
        }
        Ok(Region { base, stack, guard })
    }

    fn slice(&self, i: usize) -> SliceStack {
        let bottom = self.base + i * self.stack;
        SliceStack { top: bottom + self.stack, bottom: if self.guard { bottom + PAGE } else { bottom } }
    }

    /// Pages of stack `i` that are resident (touched), in bytes.
    fn touched(&self, i: usize) -> usize {
        let pages = self.stack / PAGE;
        let mut v = vec![0u8; pages];
        let start = self.base + i * self.stack;
        // SAFETY: the range is mapped; `v` has one byte per page.
        let rc = unsafe { libc::mincore(start as *mut libc::c_void, self.stack, v.as_mut_ptr()) };
        if rc != 0 {
            return 0;
        }
        v.iter().filter(|&&b| b & 1 != 0).count() * PAGE
    }

    fn release(&self, i: usize) {
        let s = self.slice(i);
        // SAFETY: the rank's stack is no longer in use.
        unsafe { libc::madvise(s.bottom as *mut libc::c_void, s.top - s.bottom, libc::MADV_DONTNEED) };
    }
}

thread_local! {
    /// The per-rank variable images of the contexts run on this thread.
    static IMAGES: RefCell<Option<Images>> = const { RefCell::new(None) };
}

/// Where rank `r`'s copy of the per-rank variable at `addr` is now: `addr`
/// itself unless it lies in section `bsim_rank` and another rank's image is
/// loaded (a collective's last member reads and writes the other members'
/// buffers and counts: IS keeps them in file-scope arrays).
pub fn translate(r: u32, addr: usize) -> usize {
    let (start, stop) = (SEC_START.load(SeqCst), SEC_STOP.load(SeqCst));
    if addr < start || addr >= stop {
        return addr;
    }
    IMAGES.with(|im| {
        let mut im = im.borrow_mut();
        let Some(im) = im.as_mut() else { return addr };
        let ri = r as usize;
        if im.loaded == Some(ri) {
            return addr;
        }
        let init = &im.init;
        let img = im.imgs[ri].get_or_insert_with(|| init.clone().into_boxed_slice());
        img.as_mut_ptr() as usize + (addr - start)
    })
}

/// The per-rank variable images (section `bsim_rank`).
struct Images {
    start: usize,
    len: usize,
    init: Vec<u8>,
    imgs: Vec<Option<Box<[u8]>>>,
    loaded: Option<usize>,
}

impl Images {
    fn new(n: usize) -> Images {
        let start = SEC_START.load(SeqCst);
        let len = rank_section_len();
        let init = if len == 0 {
            vec![]
        } else {
            // SAFETY: the section's bytes, as the program starts.
            unsafe { std::slice::from_raw_parts(start as *const u8, len) }.to_vec()
        };
        Images { start, len, init, imgs: if len > 0 { (0..n).map(|_| None).collect() } else { vec![] }, loaded: None }
    }

    /// Make the section hold rank `r`'s variables.
    fn switch_to(&mut self, r: usize) {
        if self.len == 0 || self.loaded == Some(r) {
            return;
        }
        // SAFETY: the section is `len` writable bytes; no context runs now.
        let sec = unsafe { std::slice::from_raw_parts_mut(self.start as *mut u8, self.len) };
        if let Some(p) = self.loaded {
            match &mut self.imgs[p] {
                Some(b) => b.copy_from_slice(sec),
                slot => *slot = Some(sec.to_vec().into_boxed_slice()),
            }
        }
        match &self.imgs[r] {
            Some(b) => sec.copy_from_slice(b),
            None => sec.copy_from_slice(&self.init),
        }
        self.loaded = Some(r);
    }

    fn finished(&mut self, r: usize) {
        if self.len > 0 {
            self.imgs[r] = None;
            if self.loaded == Some(r) {
                self.loaded = None;
            }
        }
    }
}

/// One rank's life on its context: make its `Rank` (handing it to `set` before
/// the program's main runs), run the main, return the exit code and result.
pub type RankBody = dyn Fn(u32, &dyn Fn(*mut Rank)) -> (c_int, RankResult);

pub struct CtxOpts {
    pub stack: usize,
    pub guard: Option<bool>,
    pub quiet: bool,
}

/// Stack use measured when each rank finished (resident pages of its stack).
#[derive(Default, Debug, Clone, Copy)]
pub struct StackUse {
    pub max: usize,
    pub sum: usize,
}

/// Run every rank as a context; returns each rank's exit code and result (rank order).
pub unsafe fn run_all(s: &'static Sim, o: &CtxOpts, body: &'static RankBody) -> Result<(Vec<(c_int, RankResult)>, StackUse), String> {
    let n = s.n as usize;
    let region = Region::new(n, o.stack, o.guard, o.quiet)?;
    IMAGES.with(|im| *im.borrow_mut() = Some(Images::new(n)));
    super::sched::set_translate(Some(translate));
    let images = |f: &mut dyn FnMut(&mut Images)| IMAGES.with(|im| f(im.borrow_mut().as_mut().unwrap()));
    let slots: &'static [Cell<*mut Rank>] = Box::leak((0..n).map(|_| Cell::new(std::ptr::null_mut())).collect::<Vec<_>>().into_boxed_slice());
    type Co = Coroutine<(), (), (c_int, RankResult), SliceStack>;
    let mut cos: Vec<Option<Co>> = (0..n).map(|_| None).collect();
    let mut results: Vec<Option<(c_int, RankResult)>> = (0..n).map(|_| None).collect();
    let mut use_ = StackUse::default();
    READY.with(|q| {
        let mut q = q.borrow_mut();
        q.clear();
        q.extend((0..n as u32).map(|r| Reverse((0f64.to_bits(), r))));
    });
    let mut left = n;
    while left > 0 {
        let Some(Reverse((_, r))) = READY.with(|q| q.borrow_mut().pop()) else {
            // every live rank sleeps: the last one to sleep resolves or reports,
            // so this cannot happen unless the engine lost a wake-up
            return Err(format!("internal error: {left} rank(s) left but none is ready"));
        };
        let ri = r as usize;
        if results[ri].is_some() {
            continue;
        }
        let co = cos[ri].get_or_insert_with(|| {
            Coroutine::with_stack(region.slice(ri), move |y: &Y, ()| {
                YIELDER.with(|c| c.set(y));
                body(r, &|p| slots[r as usize].set(p))
            })
        });
        images(&mut |im| im.switch_to(ri));
        super::current::set(slots[ri].get());
        RUNNING.with(|c| c.set(r));
        let res = co.resume(());
        RUNNING.with(|c| c.set(u32::MAX));
        super::current::set(std::ptr::null_mut());
        if let CoroutineResult::Return(v) = res {
            results[ri] = Some(v);
            cos[ri] = None;
            let t = region.touched(ri);
            use_.max = use_.max.max(t);
            use_.sum += t;
            region.release(ri);
            images(&mut |im| im.finished(ri));
            left -= 1;
        }
    }
    IMAGES.with(|im| *im.borrow_mut() = None);
    super::sched::set_translate(None);
    engine::lock(&s.meetings).clear();
    Ok((results.into_iter().map(|x| x.unwrap()).collect(), use_))
}
