//! Persistent requests, above both back ends: a handle (from `PERSIST_BASE` up)
//! keeps the call's arguments and, while started, the kernel request of the
//! Isend/Irecv it made.

use std::cell::RefCell;
use std::ffi::c_int;

/// Persistent handles start here (engine handles stay far below).
const PERSIST_BASE: c_int = 1 << 28;

#[derive(Clone, Copy)]
pub(super) struct Persist {
    pub(super) send: bool,
    pub(super) buf: usize,
    pub(super) count: c_int,
    pub(super) t: c_int,
    pub(super) peer: c_int,
    pub(super) tag: c_int,
    pub(super) comm: c_int,
    /// `BSIM_Carry` flags of the init call, given again to every Start.
    pub(super) carry: u8,
    /// The started request (0: inactive).
    pub(super) active: c_int,
}

thread_local! {
    // one table per rank thread (threads back end) or process (mpi back end)
    static TABLE: RefCell<Vec<Option<Persist>>> = const { RefCell::new(vec![]) };
}

fn slot(h: c_int) -> Option<usize> {
    (h >= PERSIST_BASE).then(|| (h - PERSIST_BASE) as usize)
}

pub(super) fn get(h: c_int) -> Option<Persist> {
    let i = slot(h)?;
    TABLE.with(|t| t.borrow().get(i).copied().flatten())
}

/// The engine handle behind `h` (itself unless persistent).
pub fn active(h: c_int) -> c_int {
    match slot(h) {
        None => h,
        Some(_) => get(h).map_or(-1, |p| p.active),
    }
}

/// Mark a persistent request inactive after completion; false if not persistent.
pub fn deactivate(h: c_int) -> bool {
    let Some(i) = slot(h) else { return false };
    TABLE.with(|t| {
        if let Some(Some(p)) = t.borrow_mut().get_mut(i) {
            p.active = 0;
        }
    });
    true
}

/// Request_free of a persistent handle: forget it, return its active request.
pub fn free_persistent(h: c_int) -> c_int {
    let Some(i) = slot(h) else { return h };
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        match t.get_mut(i).and_then(|p| p.take()) {
            Some(p) => p.active,
            None => -1,
        }
    })
}

pub(super) fn create(p: Persist) -> c_int {
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        let i = t.iter().position(|x| x.is_none()).unwrap_or_else(|| {
            t.push(None);
            t.len() - 1
        });
        t[i] = Some(p);
        PERSIST_BASE + i as c_int
    })
}

/// A started persistent request `h` now stands for kernel request `inner`.
pub(super) fn activate(h: c_int, inner: c_int) {
    let Some(i) = slot(h) else { return };
    TABLE.with(|t| {
        if let Some(Some(q)) = t.borrow_mut().get_mut(i) {
            q.active = inner;
        }
    });
}
