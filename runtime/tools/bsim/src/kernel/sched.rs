//! The ready queue of the contexts back end (`ctx`): which rank runs next on the
//! loop's thread. The engine only asks whether a context runs (`active`) and
//! makes ranks ready or gives the thread back (`ready`, `suspend`, `yield_now`);
//! it never sees stacks or coroutines.

use corosensei::Yielder;
use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

pub(super) type Y = Yielder<(), ()>;

thread_local! {
    /// Ranks ready to run, earliest published clock first (f64 bits, rank).
    pub(super) static READY: RefCell<BinaryHeap<Reverse<(u64, u32)>>> = const { RefCell::new(BinaryHeap::new()) };
    /// The rank running now (u32::MAX: the loop itself).
    pub(super) static RUNNING: Cell<u32> = const { Cell::new(u32::MAX) };
    pub(super) static YIELDER: Cell<*const Y> = const { Cell::new(std::ptr::null()) };
}

/// Where rank `r`'s copy of a per-rank variable is: `(r, addr) -> addr`.
pub type Translate = fn(u32, usize) -> usize;

thread_local! {
    /// Where a rank's per-rank variable is while another rank runs (`ctx::translate`).
    static TRANSLATE: Cell<Option<Translate>> = const { Cell::new(None) };
}

/// The contexts back end tells where other ranks' per-rank variables are.
pub fn set_translate(f: Option<Translate>) {
    TRANSLATE.with(|t| t.set(f));
}

/// Rank `r`'s copy of the variable at `addr` (itself unless a context back end
/// keeps it elsewhere while another rank runs).
pub fn translate(r: u32, addr: usize) -> usize {
    match TRANSLATE.with(|t| t.get()) {
        Some(f) => f(r, addr),
        None => addr,
    }
}

/// True on the loop's thread while a context runs (the engine then yields
/// instead of waiting on a condition variable).
pub fn active() -> bool {
    RUNNING.with(|r| r.get()) != u32::MAX
}

/// The rank whose context runs now (None: none, or not the contexts back end).
pub fn running() -> Option<u32> {
    Some(RUNNING.with(|r| r.get())).filter(|&r| r != u32::MAX)
}

/// Make `r` runnable (it was sleeping), ordered by its published clock `clock`.
/// The rank that runs now needs no entry.
pub fn ready(clock: f64, r: u32) {
    if RUNNING.with(|c| c.get()) == r {
        return;
    }
    READY.with(|q| q.borrow_mut().push(Reverse((clock.to_bits(), r))));
}

/// Give the thread back to the loop until this rank is made ready again.
pub fn suspend() {
    let y = YIELDER.with(|c| c.get());
    let me = RUNNING.with(|c| c.get());
    assert!(!y.is_null(), "bsim: suspend outside a context");
    // SAFETY: `y` is this coroutine's yielder, alive while the coroutine runs.
    unsafe { (*y).suspend(()) };
    YIELDER.with(|c| c.set(y));
    RUNNING.with(|c| c.set(me));
}

/// An unsuccessful poll: let the other ready ranks run first (`clock`: mine).
pub fn yield_now(clock: f64, me: u32) {
    READY.with(|q| q.borrow_mut().push(Reverse((clock.to_bits(), me))));
    suspend();
}
