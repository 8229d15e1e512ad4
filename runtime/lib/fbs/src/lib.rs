//! FBS, the fast barrier synchronization of Nakamura et al. (SR11000 model H1,
//! `docs/fbs.md`): each participant owns a flag on its own cache line; at
//! barrier point k (mod 3) it stores k and waits until every other flag holds
//! k or k+1. No lock, no shared counter.
//!
//! * [`Barrier`]: the barrier for `n` threads, flags on the heap; each thread
//!   waits with its own participant index (`barrier.wait(i)`).
//! * [`Flags`]: the same rule over memory the caller provides (the XMP
//!   runtime's process barrier puts the flags in an `MPI_Win_allocate_shared`
//!   window and sleeps on a process-shared futex).
//! * [`Mapping`]: the paper's placement of participants on CPUs (sequential or
//!   binary-tree), with [`pin`] to apply it.
//! * C ABI: `fbs_new`, `fbs_wait`, `fbs_free` (`include/xmpc_fbs.h`).
//!
//! Waiting is spin, then yield, then sleep on a futex ([`Policy`]), so more
//! threads than cores slow the barrier down but never stall it.

mod capi;
mod flags;
mod place;

pub use capi::{fbs_free, fbs_new, fbs_participants, fbs_t, fbs_wait};
pub use flags::{area_bytes, Flags, Layout, Policy, Sleep, LINE};
pub use place::{pin, Mapping};

use std::alloc::{alloc_zeroed, dealloc, Layout as Alloc};

/// An FBS barrier for `n` threads of one process.
pub struct Barrier {
    flags: Flags,
    mem: *mut u8,
    bytes: usize,
}

// SAFETY: the flags are only accessed atomically; the block is freed on drop only.
unsafe impl Send for Barrier {}
unsafe impl Sync for Barrier {}

impl Barrier {
    /// `n` participants, flags on separate lines, waiting policy for `n`
    /// ([`Policy::for_participants`]).
    pub fn new(n: usize) -> Barrier {
        Barrier::with(n, Layout::Separate, Policy::for_participants(n))
    }

    /// # Panics
    /// When `n` is 0.
    pub fn with(n: usize, layout: Layout, policy: Policy) -> Barrier {
        assert!(n > 0, "an FBS barrier needs at least one participant");
        let bytes = area_bytes(n, layout);
        let al = Alloc::from_size_align(bytes, LINE).expect("FBS flag area size");
        // SAFETY: non-zero size; zeroed as Flags::from_raw requires.
        let mem = unsafe { alloc_zeroed(al) };
        if mem.is_null() {
            std::alloc::handle_alloc_error(al);
        }
        // SAFETY: the block is ours, aligned, zeroed, freed only on drop.
        let flags = unsafe { Flags::from_raw(mem, n, layout, Sleep::Private, policy) };
        Barrier { flags, mem, bytes }
    }

    pub fn participants(&self) -> usize {
        self.flags.participants()
    }

    /// Barrier point for participant `me` (0-based; each thread its own).
    ///
    /// # Panics
    /// When `me` is not below the participant count.
    #[inline]
    pub fn wait(&self, me: usize) {
        self.flags.wait(me)
    }

    /// The flag view (for split-phase use: [`Flags::arrive`] / [`Flags::depart`]).
    pub fn flags(&self) -> &Flags {
        &self.flags
    }
}

impl Drop for Barrier {
    fn drop(&mut self) {
        // SAFETY: allocated in `with` with this size and alignment.
        unsafe { dealloc(self.mem, Alloc::from_size_align_unchecked(self.bytes, LINE)) }
    }
}
