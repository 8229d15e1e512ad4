//! The LMPI C ABI (see include/lmpi.h): thin wrappers that check arguments
//! and call the engine of the current rank thread.

use crate::kernel::api::{self, collective, irecv, isend, testall, wait, waitall, waitany};
use crate::kernel::coll::CollKind;
use crate::kernel::collargs::CollArgs;
use crate::kernel::current::{self, fail, with};
use crate::kernel::dtype;
use crate::kernel::rank::{Rank, St, ANY_SOURCE, ANY_TAG, PROC_NULL};
use crate::kernel::{COMM_NULL, IN_PLACE, UNDEFINED};
use std::ffi::{c_char, c_double, c_int, c_void};

pub const SUCCESS: c_int = 0;

pub(crate) fn check_comm(r: &Rank, call: &str, comm: c_int) -> (i32, usize) {
    match r.comm(comm) {
        Some(c) => (c.me, c.members.len()),
        None => fail(r, call, format!("invalid communicator {comm}")),
    }
}

fn tsize(r: &Rank, call: &str, t: c_int) -> u64 {
    dtype::size(t).unwrap_or_else(|| fail(r, call, format!("invalid datatype {t}")))
}

pub(crate) fn check_peer(r: &Rank, call: &str, comm: c_int, peer: c_int, any_ok: bool) {
    let (_, n) = check_comm(r, call, comm);
    if peer == PROC_NULL || (any_ok && peer == ANY_SOURCE) || (peer >= 0 && (peer as usize) < n) {
        return;
    }
    fail(r, call, format!("rank {peer} is not in the communicator (size {n})"))
}

pub(crate) fn bytes_of(r: &Rank, call: &str, count: c_int, t: c_int) -> u64 {
    if count < 0 {
        fail(r, call, format!("negative count {count}"));
    }
    count as u64 * tsize(r, call, t)
}

/// The C status layout (lmpi.h).
#[repr(C)]
pub struct LmpiStatus {
    pub source: c_int,
    pub tag: c_int,
    pub error: c_int,
    pub reserved: c_int,
    pub bytes: i64,
}

pub unsafe fn put_status(p: *mut LmpiStatus, st: &St) {
    if !p.is_null() {
        (*p).source = st.source;
        (*p).tag = st.tag;
        (*p).error = 0;
        std::ptr::addr_of_mut!((*p).bytes).write_unaligned(st.bytes as i64);
    }
}

// ---------------- environment ----------------

#[no_mangle]
pub extern "C" fn LMPI_Init(_argc: *mut c_int, _argv: *mut *mut *mut c_char) -> c_int {
    with("LMPI_Init", |r| {
        r.initialized = true;
        r.host_start();
    });
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Init_thread(_argc: *mut c_int, _argv: *mut *mut *mut c_char, required: c_int, provided: *mut c_int) -> c_int {
    with("LMPI_Init_thread", |r| {
        r.initialized = true;
        r.host_start();
    });
    if !provided.is_null() {
        *provided = required.min(3);
    }
    SUCCESS
}

#[no_mangle]
pub extern "C" fn LMPI_Finalize() -> c_int {
    with("LMPI_Finalize", |r| {
        r.host_stop();
        r.finalized = true;
    });
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Initialized(flag: *mut c_int) -> c_int {
    *flag = with("LMPI_Initialized", |r| r.initialized) as c_int;
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Finalized(flag: *mut c_int) -> c_int {
    *flag = with("LMPI_Finalized", |r| r.finalized) as c_int;
    SUCCESS
}

#[no_mangle]
pub extern "C" fn LMPI_Abort(_comm: c_int, code: c_int) -> c_int {
    let id = current::get();
    let rank = if id.is_null() { -1 } else { unsafe { (*id).id as i64 } };
    eprintln!("bsim: rank {rank} called LMPI_Abort({code})");
    api::abort(if code == 0 { 1 } else { code })
}

#[no_mangle]
pub extern "C" fn LMPI_Wtime() -> c_double {
    with("LMPI_Wtime", |r| {
        r.charge_host();
        let t = r.clock;
        r.host_resume();
        t
    })
}

#[no_mangle]
pub extern "C" fn LMPI_Wtick() -> c_double {
    1e-9
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Get_processor_name(name: *mut c_char, len: *mut c_int) -> c_int {
    let id = with("LMPI_Get_processor_name", |r| r.id);
    let node = crate::kernel::engine::sim().plat.nodes.node(id as u64);
    let s = format!("bsim-node{node}");
    std::ptr::copy_nonoverlapping(s.as_ptr() as *const c_char, name, s.len());
    *name.add(s.len()) = 0;
    *len = s.len() as c_int;
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Type_size(t: c_int, size: *mut c_int) -> c_int {
    *size = with("LMPI_Type_size", |r| tsize(r, "LMPI_Type_size", t)) as c_int;
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Type_contiguous(count: c_int, old: c_int, new: *mut c_int) -> c_int {
    let b = with("LMPI_Type_contiguous", |r| bytes_of(r, "LMPI_Type_contiguous", count, old));
    *new = dtype::derive(b, old).unwrap();
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Type_vector(count: c_int, blocklen: c_int, _stride: c_int, old: c_int, new: *mut c_int) -> c_int {
    let b = with("LMPI_Type_vector", |r| bytes_of(r, "LMPI_Type_vector", count.max(0) * blocklen.max(0), old));
    *new = dtype::derive(b, old).unwrap();
    SUCCESS
}

#[no_mangle]
pub extern "C" fn LMPI_Type_commit(_t: *mut c_int) -> c_int {
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Type_free(t: *mut c_int) -> c_int {
    *t = 0;
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Get_count(st: *const LmpiStatus, t: c_int, count: *mut c_int) -> c_int {
    let sz = with("LMPI_Get_count", |r| tsize(r, "LMPI_Get_count", t));
    let b = std::ptr::addr_of!((*st).bytes).read_unaligned() as u64;
    *count = if sz == 0 {
        0
    } else if !b.is_multiple_of(sz) {
        UNDEFINED
    } else {
        (b / sz) as c_int
    };
    SUCCESS
}

// ---------------- communicators ----------------

#[no_mangle]
pub unsafe extern "C" fn LMPI_Comm_rank(comm: c_int, rank: *mut c_int) -> c_int {
    *rank = with("LMPI_Comm_rank", |r| check_comm(r, "LMPI_Comm_rank", comm).0);
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Comm_size(comm: c_int, size: *mut c_int) -> c_int {
    *size = with("LMPI_Comm_size", |r| check_comm(r, "LMPI_Comm_size", comm).1) as c_int;
    SUCCESS
}

fn split(comm: c_int, color: c_int, key: c_int, kind: CollKind, name: &'static str) -> c_int {
    with(name, |r| {
        let (me, _) = check_comm(r, name, comm);
        r.enter();
        let newctx = r.derive_ctx(comm, color as i64);
        let a = CollArgs { color: color as i64, key: key as i64, newctx, ..CollArgs::new(r.clock) };
        r.trace_line(|| format!("{} peer=-1 tag=-1 bytes=0 comm={comm}", kind.name()));
        let res = collective(r, comm, kind, a);
        r.leave(name);
        match res {
            Some((ctx, members)) => {
                let my = members.iter().position(|&x| x == r.id).unwrap() as i32;
                let _ = me;
                let h = r.add_comm(crate::kernel::rank::Comm { ctx, members, me: my, coll_seq: 0, child_seq: 0 });
                api::bind_comm(h);
                h
            }
            None => COMM_NULL,
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Comm_dup(comm: c_int, new: *mut c_int) -> c_int {
    *new = split(comm, 0, with("LMPI_Comm_dup", |r| check_comm(r, "LMPI_Comm_dup", comm).0), CollKind::CommDup, "LMPI_Comm_dup");
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Comm_split(comm: c_int, color: c_int, key: c_int, new: *mut c_int) -> c_int {
    let color = if color < 0 { UNDEFINED } else { color };
    *new = split(comm, color, key, CollKind::CommSplit, "LMPI_Comm_split");
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Comm_free(comm: *mut c_int) -> c_int {
    with("LMPI_Comm_free", |r| {
        let h = *comm;
        if h > 2 {
            if let Some(c) = r.comms.get_mut(h as usize) {
                *c = None;
            }
        }
    });
    *comm = COMM_NULL;
    SUCCESS
}

// ---------------- point to point ----------------

/// The flags of `BSIM_Carry` for this call (cleared), or both in payload mode.
pub(crate) fn carry(r: &mut Rank) -> u8 {
    let c = std::mem::take(&mut r.carry);
    if crate::kernel::engine::sim().payload {
        3
    } else {
        c
    }
}

/// The receive buffer a message's data goes to (0: none, the data is dropped).
fn rbuf_of(buf: *const c_void, carry: u8) -> usize {
    if carry & 2 != 0 {
        buf as usize
    } else {
        0
    }
}

/// The data a send moves: its buffer when the call carries it.
pub(crate) unsafe fn data<'a>(buf: *const c_void, bytes: u64, carry: u8) -> Option<&'a [u8]> {
    if buf.is_null() || bytes == 0 || carry & 1 == 0 {
        None
    } else {
        Some(std::slice::from_raw_parts(buf as *const u8, bytes as usize))
    }
}

unsafe fn send_common(
    buf: *const c_void,
    count: c_int,
    t: c_int,
    dest: c_int,
    tag: c_int,
    comm: c_int,
    blocking: bool,
    sync: bool,
    name: &'static str,
) -> c_int {
    with(name, |r| {
        check_peer(r, name, comm, dest, false);
        let b = bytes_of(r, name, count, t);
        r.enter();
        if dest != PROC_NULL {
            r.trace_line(|| format!("send peer={dest} tag={tag} bytes={b} comm={comm}"));
        }
        let c = carry(r);
        let h = isend(r, comm, dest, tag, b, data(buf, b, c), blocking, sync);
        if blocking {
            let mut st = St::default();
            wait(r, h, &mut st);
            r.leave(name);
            0
        } else {
            r.leave(name);
            h
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Send(buf: *const c_void, count: c_int, t: c_int, dest: c_int, tag: c_int, comm: c_int) -> c_int {
    send_common(buf, count, t, dest, tag, comm, true, false, "LMPI_Send");
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Ssend(buf: *const c_void, count: c_int, t: c_int, dest: c_int, tag: c_int, comm: c_int) -> c_int {
    send_common(buf, count, t, dest, tag, comm, true, true, "LMPI_Ssend");
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Rsend(buf: *const c_void, count: c_int, t: c_int, dest: c_int, tag: c_int, comm: c_int) -> c_int {
    LMPI_Send(buf, count, t, dest, tag, comm)
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Bsend(buf: *const c_void, count: c_int, t: c_int, dest: c_int, tag: c_int, comm: c_int) -> c_int {
    LMPI_Send(buf, count, t, dest, tag, comm)
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Isend(buf: *const c_void, count: c_int, t: c_int, dest: c_int, tag: c_int, comm: c_int, req: *mut c_int) -> c_int {
    *req = send_common(buf, count, t, dest, tag, comm, false, false, "LMPI_Isend");
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Issend(buf: *const c_void, count: c_int, t: c_int, dest: c_int, tag: c_int, comm: c_int, req: *mut c_int) -> c_int {
    *req = send_common(buf, count, t, dest, tag, comm, false, true, "LMPI_Issend");
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Irecv(buf: *mut c_void, count: c_int, t: c_int, src: c_int, tag: c_int, comm: c_int, req: *mut c_int) -> c_int {
    *req = with("LMPI_Irecv", |r| {
        check_peer(r, "LMPI_Irecv", comm, src, true);
        let b = bytes_of(r, "LMPI_Irecv", count, t);
        r.enter();
        let c = carry(r);
        let h = irecv(r, comm, src, tag, rbuf_of(buf, c), b);
        r.leave("LMPI_Irecv");
        h
    });
    SUCCESS
}

pub(crate) fn trace_recv(r: &mut Rank, st: &St) {
    if st.source != PROC_NULL {
        r.trace_line(|| format!("recv peer={} tag={} bytes={} comm={}", st.source, st.tag, st.bytes, st.comm));
    }
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Recv(buf: *mut c_void, count: c_int, t: c_int, src: c_int, tag: c_int, comm: c_int, status: *mut LmpiStatus) -> c_int {
    let st = with("LMPI_Recv", |r| {
        check_peer(r, "LMPI_Recv", comm, src, true);
        let b = bytes_of(r, "LMPI_Recv", count, t);
        r.enter();
        let c = carry(r);
        let h = irecv(r, comm, src, tag, rbuf_of(buf, c), b);
        let mut st = St::default();
        wait(r, h, &mut st);
        trace_recv(r, &st);
        r.leave("LMPI_Recv");
        st
    });
    put_status(status, &st);
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Sendrecv(
    sbuf: *const c_void,
    scount: c_int,
    stype: c_int,
    dest: c_int,
    stag: c_int,
    rbuf: *mut c_void,
    rcount: c_int,
    rtype: c_int,
    src: c_int,
    rtag: c_int,
    comm: c_int,
    status: *mut LmpiStatus,
) -> c_int {
    let st = with("LMPI_Sendrecv", |r| {
        check_peer(r, "LMPI_Sendrecv", comm, dest, false);
        check_peer(r, "LMPI_Sendrecv", comm, src, true);
        let sb = bytes_of(r, "LMPI_Sendrecv", scount, stype);
        let rb = bytes_of(r, "LMPI_Sendrecv", rcount, rtype);
        r.enter();
        let c = carry(r);
        let hr = irecv(r, comm, src, rtag, rbuf_of(rbuf, c), rb);
        if dest != PROC_NULL {
            r.trace_line(|| format!("send peer={dest} tag={stag} bytes={sb} comm={comm}"));
        }
        let hs = isend(r, comm, dest, stag, sb, data(sbuf, sb, c), false, false);
        let mut sts = [St::default(), St::default()];
        waitall(r, &[hr, hs], &mut sts);
        trace_recv(r, &sts[0]);
        r.leave("LMPI_Sendrecv");
        sts[0]
    });
    put_status(status, &st);
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Sendrecv_replace(
    buf: *mut c_void,
    count: c_int,
    t: c_int,
    dest: c_int,
    stag: c_int,
    src: c_int,
    rtag: c_int,
    comm: c_int,
    status: *mut LmpiStatus,
) -> c_int {
    let b = with("LMPI_Sendrecv_replace", |r| bytes_of(r, "LMPI_Sendrecv_replace", count, t)) as usize;
    let c = with("LMPI_Sendrecv_replace", |r| {
        let c = carry(r);
        r.carry = c;
        c
    });
    let copy: Vec<u8> = if buf.is_null() || c & 1 == 0 { vec![] } else { std::slice::from_raw_parts(buf as *const u8, b).to_vec() };
    let sp = if copy.is_empty() { std::ptr::null() } else { copy.as_ptr() as *const c_void };
    LMPI_Sendrecv(sp, count, t, dest, stag, buf, count, t, src, rtag, comm, status)
}

/// The engine handles behind user handles (persistent ones: the active
/// request, REQUEST_NULL when inactive).
pub(crate) fn reqs_of(h: *mut c_int, n: c_int) -> Vec<i32> {
    if n <= 0 || h.is_null() {
        return vec![];
    }
    unsafe { std::slice::from_raw_parts(h, n as usize) }.iter().map(|&x| super::persist::active(x)).collect()
}

/// A user handle whose request completed: REQUEST_NULL, or inactive if persistent.
pub(crate) unsafe fn release(p: *mut c_int) {
    if !super::persist::deactivate(*p) {
        *p = 0;
    }
}

pub(crate) fn check_reqs(r: &Rank, call: &str, hs: &[i32]) {
    for &h in hs {
        if h != 0 && !api::valid_req(r, h) {
            fail(r, call, format!("invalid request handle {h}"));
        }
    }
}

/// Trace completed receives (requests that were receives have a source set).
pub(crate) fn finish_statuses(r: &mut Rank, sts: &[St], was_recv: &[bool]) {
    for (st, &rv) in sts.iter().zip(was_recv) {
        if rv {
            trace_recv(r, st);
        }
    }
}

pub(crate) fn recv_flags(r: &Rank, hs: &[i32]) -> Vec<bool> {
    hs.iter().map(|&h| api::is_recv(r, h)).collect()
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Wait(req: *mut c_int, status: *mut LmpiStatus) -> c_int {
    waitall_named("LMPI_Wait", 1, req, status)
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Waitall(n: c_int, reqs: *mut c_int, statuses: *mut LmpiStatus) -> c_int {
    waitall_named("LMPI_Waitall", n, reqs, statuses)
}

/// Wait and Waitall, under the name the program called (deadlock reports, traces).
unsafe fn waitall_named(name: &'static str, n: c_int, reqs: *mut c_int, statuses: *mut LmpiStatus) -> c_int {
    let hs = reqs_of(reqs, n);
    let sts = with(name, |r| {
        check_reqs(r, name, &hs);
        r.enter();
        let rv = recv_flags(r, &hs);
        let mut sts = vec![St::null(0); hs.len()];
        waitall(r, &hs, &mut sts);
        finish_statuses(r, &sts, &rv);
        r.leave(name);
        sts
    });
    for (i, st) in sts.iter().enumerate() {
        release(reqs.add(i));
        if !statuses.is_null() {
            put_status(statuses.add(i), st);
        }
    }
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Waitany(n: c_int, reqs: *mut c_int, index: *mut c_int, status: *mut LmpiStatus) -> c_int {
    let hs = reqs_of(reqs, n);
    let (idx, st) = with("LMPI_Waitany", |r| {
        check_reqs(r, "LMPI_Waitany", &hs);
        r.enter();
        let rv = recv_flags(r, &hs);
        let mut st = St::default();
        let i = waitany(r, &hs, &mut st);
        if let Some(i) = i {
            finish_statuses(r, &[st], &rv[i..=i]);
        }
        r.leave("LMPI_Waitany");
        (i, st)
    });
    match idx {
        Some(i) => {
            release(reqs.add(i));
            *index = i as c_int;
            put_status(status, &st);
        }
        None => *index = UNDEFINED,
    }
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Testall(n: c_int, reqs: *mut c_int, flag: *mut c_int, statuses: *mut LmpiStatus) -> c_int {
    testall_named("LMPI_Testall", n, reqs, flag, statuses)
}

/// Test and Testall, under the name the program called.
unsafe fn testall_named(name: &'static str, n: c_int, reqs: *mut c_int, flag: *mut c_int, statuses: *mut LmpiStatus) -> c_int {
    let hs = reqs_of(reqs, n);
    let res = with(name, |r| {
        check_reqs(r, name, &hs);
        r.enter();
        let rv = recv_flags(r, &hs);
        let mut sts = vec![St::null(0); hs.len()];
        let ok = testall(r, &hs, &mut sts);
        if ok {
            finish_statuses(r, &sts, &rv);
        }
        r.leave(name);
        ok.then_some(sts)
    });
    *flag = res.is_some() as c_int;
    if let Some(sts) = res {
        for (i, st) in sts.iter().enumerate() {
            release(reqs.add(i));
            if !statuses.is_null() {
                put_status(statuses.add(i), st);
            }
        }
    }
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Test(req: *mut c_int, flag: *mut c_int, status: *mut LmpiStatus) -> c_int {
    testall_named("LMPI_Test", 1, req, flag, status)
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Request_free(req: *mut c_int) -> c_int {
    let inner = super::persist::free_persistent(*req);
    with("LMPI_Request_free", |r| {
        let req = &inner;
        api::request_free(r, *req)
    });
    *req = 0;
    SUCCESS
}

// ---------------- collectives ----------------

fn buf(p: *const c_void) -> usize {
    p as usize
}

#[allow(clippy::too_many_arguments)]
fn coll(name: &'static str, comm: c_int, kind: CollKind, root: c_int, f: impl FnOnce(&Rank, &mut CollArgs)) -> c_int {
    coll_impl(name, comm, kind, root, false, f);
    SUCCESS
}

/// A collective; `nb`: nonblocking, the exit time goes into a request
/// (returned) and the clock stays at the call until the Wait.
pub(crate) fn coll_impl(name: &'static str, comm: c_int, kind: CollKind, root: c_int, nb: bool, f: impl FnOnce(&Rank, &mut CollArgs)) -> c_int {
    with(name, |r| {
        if nb && api::mpi_backend() {
            fail(r, name, "nonblocking collectives are not supported by the mpi back end (use the threads back end)".into());
        }
        let (_, n) = check_comm(r, name, comm);
        if kind.rooted() && (root < 0 || root as usize >= n) {
            fail(r, name, format!("root {root} is not in the communicator (size {n})"));
        }
        r.enter();
        let mut a = CollArgs::new(r.clock);
        a.root = root;
        a.p = n;
        a.carry = std::mem::take(&mut r.carry);
        f(r, &mut a);
        let bytes = match kind {
            CollKind::Alltoallv | CollKind::Gatherv | CollKind::Scatterv | CollKind::Allgatherv => {
                if a.sbuf == IN_PLACE {
                    0
                } else {
                    a.scount.max(0) as u64 * a.ssize
                }
            }
            _ => a.scount.max(0) as u64 * a.ssize,
        };
        r.trace_line(|| format!("{} peer={root} tag=-1 bytes={bytes} comm={comm}", kind.name()));
        let start = r.clock;
        collective(r, comm, kind, a);
        let h = if nb {
            let exit = r.clock;
            r.clock = start;
            r.done_req(start, exit)
        } else {
            0
        };
        r.leave(name);
        h
    })
}

#[no_mangle]
pub extern "C" fn LMPI_Barrier(comm: c_int) -> c_int {
    coll("LMPI_Barrier", comm, CollKind::Barrier, 0, |_, _| {})
}

#[no_mangle]
pub extern "C" fn LMPI_Bcast(b: *mut c_void, count: c_int, t: c_int, root: c_int, comm: c_int) -> c_int {
    coll("LMPI_Bcast", comm, CollKind::Bcast, root, |r, a| {
        a.sbuf = buf(b);
        a.ssize = tsize(r, "LMPI_Bcast", t);
        a.scount = count as i64;
    })
}

fn reduce_args(r: &Rank, name: &str, a: &mut CollArgs, s: *const c_void, d: *mut c_void, count: c_int, t: c_int, op: c_int) {
    a.sbuf = buf(s);
    a.rbuf = buf(d);
    a.scount = count as i64;
    a.ssize = tsize(r, name, t);
    if !dtype::valid_op(op) {
        fail(r, name, format!("invalid reduction operator {op}"));
    }
    a.op = op;
    a.elem = dtype::info(t).map(|i| i.1);
}

#[no_mangle]
pub extern "C" fn LMPI_Reduce(s: *const c_void, d: *mut c_void, count: c_int, t: c_int, op: c_int, root: c_int, comm: c_int) -> c_int {
    coll("LMPI_Reduce", comm, CollKind::Reduce, root, |r, a| reduce_args(r, "LMPI_Reduce", a, s, d, count, t, op))
}

#[no_mangle]
pub extern "C" fn LMPI_Allreduce(s: *const c_void, d: *mut c_void, count: c_int, t: c_int, op: c_int, comm: c_int) -> c_int {
    coll("LMPI_Allreduce", comm, CollKind::Allreduce, 0, |r, a| reduce_args(r, "LMPI_Allreduce", a, s, d, count, t, op))
}

macro_rules! gs_args {
    ($r:expr, $a:expr, $name:expr, $s:expr, $sc:expr, $st:expr, $d:expr, $rc:expr, $rt:expr) => {{
        $a.sbuf = buf($s);
        $a.rbuf = buf($d);
        $a.scount = $sc as i64;
        $a.rcount = $rc as i64;
        $a.ssize = if $a.sbuf == IN_PLACE { 0 } else { dtype::size($st).unwrap_or_else(|| fail($r, $name, format!("invalid datatype {}", $st))) };
        $a.rsize = if $a.rbuf == IN_PLACE { 0 } else { dtype::size($rt).unwrap_or_else(|| fail($r, $name, format!("invalid datatype {}", $rt))) };
    }};
}

#[no_mangle]
pub extern "C" fn LMPI_Gather(s: *const c_void, sc: c_int, st: c_int, d: *mut c_void, rc: c_int, rt: c_int, root: c_int, comm: c_int) -> c_int {
    coll("LMPI_Gather", comm, CollKind::Gather, root, |r, a| {
        gs_args!(r, a, "LMPI_Gather", s, sc, st, d, rc, rt);
        if a.sbuf == IN_PLACE {
            a.scount = rc as i64;
            a.ssize = dtype::size(rt).unwrap_or(0);
        }
    })
}

#[no_mangle]
pub extern "C" fn LMPI_Gatherv(
    s: *const c_void,
    sc: c_int,
    st: c_int,
    d: *mut c_void,
    rcs: *const c_int,
    displs: *const c_int,
    rt: c_int,
    root: c_int,
    comm: c_int,
) -> c_int {
    coll("LMPI_Gatherv", comm, CollKind::Gatherv, root, |r, a| {
        gs_args!(r, a, "LMPI_Gatherv", s, sc, st, d, 0, rt);
        a.rcounts = rcs as usize;
        a.rdispls = displs as usize;
    })
}

#[no_mangle]
pub extern "C" fn LMPI_Scatter(s: *const c_void, sc: c_int, st: c_int, d: *mut c_void, rc: c_int, rt: c_int, root: c_int, comm: c_int) -> c_int {
    coll("LMPI_Scatter", comm, CollKind::Scatter, root, |r, a| gs_args!(r, a, "LMPI_Scatter", s, sc, st, d, rc, rt))
}

#[no_mangle]
pub extern "C" fn LMPI_Scatterv(
    s: *const c_void,
    scs: *const c_int,
    displs: *const c_int,
    st: c_int,
    d: *mut c_void,
    rc: c_int,
    rt: c_int,
    root: c_int,
    comm: c_int,
) -> c_int {
    coll("LMPI_Scatterv", comm, CollKind::Scatterv, root, |r, a| {
        gs_args!(r, a, "LMPI_Scatterv", s, 0, st, d, rc, rt);
        a.scounts = scs as usize;
        a.sdispls = displs as usize;
    })
}

#[no_mangle]
pub extern "C" fn LMPI_Allgather(s: *const c_void, sc: c_int, st: c_int, d: *mut c_void, rc: c_int, rt: c_int, comm: c_int) -> c_int {
    coll("LMPI_Allgather", comm, CollKind::Allgather, 0, |r, a| gs_args!(r, a, "LMPI_Allgather", s, sc, st, d, rc, rt))
}

#[no_mangle]
pub extern "C" fn LMPI_Allgatherv(
    s: *const c_void,
    sc: c_int,
    st: c_int,
    d: *mut c_void,
    rcs: *const c_int,
    displs: *const c_int,
    rt: c_int,
    comm: c_int,
) -> c_int {
    coll("LMPI_Allgatherv", comm, CollKind::Allgatherv, 0, |r, a| {
        gs_args!(r, a, "LMPI_Allgatherv", s, sc, st, d, 0, rt);
        a.rcounts = rcs as usize;
        a.rdispls = displs as usize;
    })
}

#[no_mangle]
pub extern "C" fn LMPI_Alltoall(s: *const c_void, sc: c_int, st: c_int, d: *mut c_void, rc: c_int, rt: c_int, comm: c_int) -> c_int {
    coll("LMPI_Alltoall", comm, CollKind::Alltoall, 0, |r, a| gs_args!(r, a, "LMPI_Alltoall", s, sc, st, d, rc, rt))
}

#[no_mangle]
pub extern "C" fn LMPI_Alltoallv(
    s: *const c_void,
    scs: *const c_int,
    sd: *const c_int,
    st: c_int,
    d: *mut c_void,
    rcs: *const c_int,
    rd: *const c_int,
    rt: c_int,
    comm: c_int,
) -> c_int {
    coll("LMPI_Alltoallv", comm, CollKind::Alltoallv, 0, |r, a| {
        gs_args!(r, a, "LMPI_Alltoallv", s, 0, st, d, 0, rt);
        a.scounts = scs as usize;
        a.sdispls = sd as usize;
        a.rcounts = rcs as usize;
        a.rdispls = rd as usize;
    })
}

// keep the constants referenced (ANY_TAG used by the engine's statuses)
const _: i32 = ANY_TAG;

// ---------------- nonblocking collectives ----------------
// Completion time = the blocking collective's exit time, computed at the call
// (members meet on the host as for the blocking one); the clock moves at the Wait.

#[no_mangle]
pub unsafe extern "C" fn LMPI_Ibarrier(comm: c_int, req: *mut c_int) -> c_int {
    *req = coll_impl("LMPI_Ibarrier", comm, CollKind::Barrier, 0, true, |_, _| {});
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Ibcast(b: *mut c_void, count: c_int, t: c_int, root: c_int, comm: c_int, req: *mut c_int) -> c_int {
    *req = coll_impl("LMPI_Ibcast", comm, CollKind::Bcast, root, true, |r, a| {
        a.sbuf = buf(b);
        a.ssize = tsize(r, "LMPI_Ibcast", t);
        a.scount = count as i64;
    });
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Ireduce(s: *const c_void, d: *mut c_void, count: c_int, t: c_int, op: c_int, root: c_int, comm: c_int, req: *mut c_int) -> c_int {
    *req = coll_impl("LMPI_Ireduce", comm, CollKind::Reduce, root, true, |r, a| reduce_args(r, "LMPI_Ireduce", a, s, d, count, t, op));
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Iallreduce(s: *const c_void, d: *mut c_void, count: c_int, t: c_int, op: c_int, comm: c_int, req: *mut c_int) -> c_int {
    *req = coll_impl("LMPI_Iallreduce", comm, CollKind::Allreduce, 0, true, |r, a| reduce_args(r, "LMPI_Iallreduce", a, s, d, count, t, op));
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Iallgather(s: *const c_void, sc: c_int, st: c_int, d: *mut c_void, rc: c_int, rt: c_int, comm: c_int, req: *mut c_int) -> c_int {
    *req = coll_impl("LMPI_Iallgather", comm, CollKind::Allgather, 0, true, |r, a| gs_args!(r, a, "LMPI_Iallgather", s, sc, st, d, rc, rt));
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Ialltoall(s: *const c_void, sc: c_int, st: c_int, d: *mut c_void, rc: c_int, rt: c_int, comm: c_int, req: *mut c_int) -> c_int {
    *req = coll_impl("LMPI_Ialltoall", comm, CollKind::Alltoall, 0, true, |r, a| gs_args!(r, a, "LMPI_Ialltoall", s, sc, st, d, rc, rt));
    SUCCESS
}
