//! The rank the calling thread runs (threads back end: one per thread; contexts:
//! switched by the scheduler; mpi: the process's only rank), and the end of a
//! rank that misused a call.

use super::rank::Rank;
use std::cell::Cell;

thread_local! {
    pub static CUR: Cell<*mut Rank> = const { Cell::new(std::ptr::null_mut()) };
}

/// Make `r` (or nothing) the calling thread's rank.
pub fn set(r: *mut Rank) {
    CUR.with(|c| c.set(r));
}

/// The calling thread's rank, if it runs one.
pub fn get() -> *mut Rank {
    CUR.with(|c| c.get())
}

/// Run `f` on the calling thread's rank; `name` is the call (reports).
pub fn with<R>(name: &'static str, f: impl FnOnce(&mut Rank) -> R) -> R {
    let p = get();
    if p.is_null() {
        eprintln!("bsim: {name} called outside a simulated rank (link the program with libxmpc_bsim_main.a and run it with `xmpc bsim run`)");
        std::process::exit(5);
    }
    // SAFETY: CUR points to the Rank owned by this thread's run loop for the thread's lifetime.
    let r = unsafe { &mut *p };
    r.call = name;
    f(r)
}

/// A call was used wrongly: say which rank and call, and end the run (exit 5).
pub fn fail(r: &Rank, call: &str, msg: String) -> ! {
    eprintln!("bsim: rank {}: {call}: {msg}", r.id);
    std::process::exit(5);
}
