//! More of the LMPI C ABI: persistent requests (`persist`), Waitsome/Testany/
//! Testsome and Probe/Iprobe.

use super::lmpi::{bytes_of, check_peer, check_reqs, finish_statuses, put_status, recv_flags, release, reqs_of, LmpiStatus, SUCCESS};
use super::persist::{activate, create, get, Persist};
use crate::kernel::current::{fail, with};
use crate::kernel::rank::{Rank, St};
use crate::kernel::{api, UNDEFINED};
use std::ffi::{c_int, c_void};

unsafe fn init(name: &'static str, send: bool, buf: *const c_void, count: c_int, t: c_int, peer: c_int, tag: c_int, comm: c_int, req: *mut c_int) -> c_int {
    let carry = with(name, |r| {
        check_peer(r, name, comm, peer, !send);
        bytes_of(r, name, count, t);
        std::mem::take(&mut r.carry)
    });
    *req = create(Persist { send, buf: buf as usize, count, t, peer, tag, comm, carry, active: 0 });
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Send_init(buf: *const c_void, count: c_int, t: c_int, dest: c_int, tag: c_int, comm: c_int, req: *mut c_int) -> c_int {
    init("LMPI_Send_init", true, buf, count, t, dest, tag, comm, req)
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Recv_init(buf: *mut c_void, count: c_int, t: c_int, src: c_int, tag: c_int, comm: c_int, req: *mut c_int) -> c_int {
    init("LMPI_Recv_init", false, buf, count, t, src, tag, comm, req)
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Start(req: *mut c_int) -> c_int {
    let h = *req;
    let p = match get(h) {
        Some(p) if p.active == 0 => p,
        Some(_) => with("LMPI_Start", |r| fail(r, "LMPI_Start", format!("persistent request {h} is already active"))),
        None => with("LMPI_Start", |r| fail(r, "LMPI_Start", format!("{h} is not a persistent request"))),
    };
    let mut inner = 0;
    with("LMPI_Start", |r| r.carry = p.carry);
    if p.send {
        super::lmpi::LMPI_Isend(p.buf as *const c_void, p.count, p.t, p.peer, p.tag, p.comm, &mut inner);
    } else {
        super::lmpi::LMPI_Irecv(p.buf as *mut c_void, p.count, p.t, p.peer, p.tag, p.comm, &mut inner);
    }
    activate(h, inner);
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Startall(n: c_int, reqs: *mut c_int) -> c_int {
    for i in 0..n.max(0) as usize {
        LMPI_Start(reqs.add(i));
    }
    SUCCESS
}

// ---------------- Waitsome / Testany / Testsome ----------------

/// Completed (index, status) pairs of `hs` (threads: deterministic rules of
/// the engine; mpi: what the host knows).
fn some(r: &mut Rank, name: &'static str, hs: &[i32], wait: bool, any: bool) -> Vec<(usize, St)> {
    check_reqs(r, name, hs);
    r.enter();
    let rv = recv_flags(r, hs);
    let out = api::some(r, hs, wait, any);
    for (i, st) in &out {
        finish_statuses(r, std::slice::from_ref(st), &rv[*i..=*i]);
    }
    r.leave(name);
    out
}

unsafe fn some_c(name: &'static str, n: c_int, reqs: *mut c_int, outcount: *mut c_int, indices: *mut c_int, statuses: *mut LmpiStatus, wait: bool) -> c_int {
    let hs = reqs_of(reqs, n);
    if hs.iter().all(|&h| h <= 0) {
        *outcount = UNDEFINED;
        return SUCCESS;
    }
    let out = with(name, |r| some(r, name, &hs, wait, false));
    *outcount = out.len() as c_int;
    for (k, (i, st)) in out.iter().enumerate() {
        release(reqs.add(*i));
        *indices.add(k) = *i as c_int;
        if !statuses.is_null() {
            put_status(statuses.add(k), st);
        }
    }
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Waitsome(n: c_int, reqs: *mut c_int, outcount: *mut c_int, indices: *mut c_int, statuses: *mut LmpiStatus) -> c_int {
    some_c("LMPI_Waitsome", n, reqs, outcount, indices, statuses, true)
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Testsome(n: c_int, reqs: *mut c_int, outcount: *mut c_int, indices: *mut c_int, statuses: *mut LmpiStatus) -> c_int {
    some_c("LMPI_Testsome", n, reqs, outcount, indices, statuses, false)
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Testany(n: c_int, reqs: *mut c_int, index: *mut c_int, flag: *mut c_int, status: *mut LmpiStatus) -> c_int {
    let hs = reqs_of(reqs, n);
    if hs.iter().all(|&h| h <= 0) {
        *index = UNDEFINED;
        *flag = 1;
        return SUCCESS;
    }
    let out = with("LMPI_Testany", |r| some(r, "LMPI_Testany", &hs, false, true));
    match out.first() {
        Some((i, st)) => {
            release(reqs.add(*i));
            *index = *i as c_int;
            *flag = 1;
            put_status(status, st);
        }
        None => {
            *index = UNDEFINED;
            *flag = 0;
        }
    }
    SUCCESS
}

// ---------------- Probe / Iprobe ----------------

fn probe(name: &'static str, src: c_int, tag: c_int, comm: c_int, blocking: bool) -> Option<St> {
    with(name, |r| {
        check_peer(r, name, comm, src, true);
        if api::mpi_backend() {
            fail(r, name, "Probe/Iprobe are not supported by the mpi back end (use the threads back end)".into());
        }
        r.enter();
        let st = r.probe(comm, src, tag, blocking);
        r.leave(name);
        st
    })
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Probe(src: c_int, tag: c_int, comm: c_int, status: *mut LmpiStatus) -> c_int {
    if let Some(st) = probe("LMPI_Probe", src, tag, comm, true) {
        put_status(status, &st);
    }
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Iprobe(src: c_int, tag: c_int, comm: c_int, flag: *mut c_int, status: *mut LmpiStatus) -> c_int {
    let st = probe("LMPI_Iprobe", src, tag, comm, false);
    *flag = st.is_some() as c_int;
    if let Some(st) = st {
        put_status(status, &st);
    }
    SUCCESS
}
