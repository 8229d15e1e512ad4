//! The LMPI C ABI (see include/lmpi.h): thin wrappers that check arguments
//! and call the engine of the current rank thread.

use crate::coll::{CollKind, Shape};
use crate::dtype;
use crate::engine::{Rank, St, ANY_SOURCE, ANY_TAG, PROC_NULL};
use std::cell::Cell;
use std::ffi::{c_char, c_double, c_int, c_void, CStr};

pub const SUCCESS: c_int = 0;
pub const UNDEFINED: c_int = -32766;
pub const COMM_NULL: c_int = 0;
pub const IN_PLACE: usize = usize::MAX;

thread_local! {
    pub static CUR: Cell<*mut Rank> = const { Cell::new(std::ptr::null_mut()) };
}

/// Run `f` on the calling thread's rank.
pub fn with<R>(name: &'static str, f: impl FnOnce(&mut Rank) -> R) -> R {
    let p = CUR.with(|c| c.get());
    if p.is_null() {
        eprintln!("bsim: {name} called outside a simulated rank (link the program with libxmpc_bsim_main.a and run it with `xmpc bsim run`)");
        std::process::exit(5);
    }
    // SAFETY: CUR points to the Rank owned by this thread's run loop for the thread's lifetime.
    let r = unsafe { &mut *p };
    r.call = name;
    f(r)
}

// ---------------- back-end dispatch ----------------
// The threads engine (`Rank` methods) or the mpi back end (one MPI process
// per rank); both keep the clocks and statistics in the same `Rank`.

use crate::mpi_backend as mb;

fn isend(r: &mut Rank, comm: i32, dest: i32, tag: i32, b: u64, data: Option<&[u8]>, blocking: bool, sync: bool) -> i32 {
    if mb::on() {
        mb::isend(r, comm, dest, tag, b, blocking, sync)
    } else {
        r.isend(comm, dest, tag, b, data, blocking, sync)
    }
}

fn irecv(r: &mut Rank, comm: i32, src: i32, tag: i32, buf: usize, cap: u64) -> i32 {
    if mb::on() {
        mb::irecv(r, comm, src, tag, cap)
    } else {
        r.irecv(comm, src, tag, buf, cap)
    }
}

fn wait(r: &mut Rank, h: i32, st: &mut St) {
    if mb::on() {
        mb::wait(r, h, st)
    } else {
        r.wait(h, st)
    }
}

fn waitall(r: &mut Rank, hs: &[i32], sts: &mut [St]) {
    if mb::on() {
        mb::waitall(r, hs, sts)
    } else {
        r.waitall(hs, sts)
    }
}

fn waitany(r: &mut Rank, hs: &[i32], st: &mut St) -> Option<usize> {
    if mb::on() {
        mb::waitany(r, hs, st)
    } else {
        r.waitany(hs, st)
    }
}

fn testall(r: &mut Rank, hs: &[i32], sts: &mut [St]) -> bool {
    if mb::on() {
        mb::testall(r, hs, sts)
    } else {
        r.testall(hs, sts)
    }
}

fn collective(r: &mut Rank, comm: i32, kind: CollKind, a: CollArgs) -> Option<(u64, std::sync::Arc<Vec<u32>>)> {
    if mb::on() {
        mb::collective(r, comm, kind, a)
    } else {
        r.collective(comm, kind, a)
    }
}

pub fn fail(r: &Rank, call: &str, msg: String) -> ! {
    eprintln!("bsim: rank {}: {call}: {msg}", r.id);
    std::process::exit(5);
}

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

// ---------------- BSIM ----------------

#[no_mangle]
pub extern "C" fn BSIM_Add_time(t: c_double) {
    with("BSIM_Add_time", |r| r.add_time(t))
}

/// CPU time of the calling thread (a rank's host time: wall time would count the
/// time the rank's thread waits for a core among thousands).
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid timespec pointer; CLOCK_THREAD_CPUTIME_ID exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Start of a compute block without a time that runs in the skeleton
/// (`xmpc --skeletonize` wraps it in Begin/End): its host time is charged.
#[no_mangle]
pub extern "C" fn BSIM_Block_begin(id: c_int) {
    with("BSIM_Block_begin", |r| r.block = Some((id, thread_cpu_seconds())))
}

/// End of such a block: the thread CPU time since its begin advances the clock.
#[no_mangle]
pub extern "C" fn BSIM_Block_end(id: c_int) {
    with("BSIM_Block_end", |r| match r.block.take() {
        Some((b, t0)) if b == id => {
            let t = thread_cpu_seconds() - t0;
            r.add_time(t)
        }
        other => fail(
            r,
            "BSIM_Block_end",
            format!(
                "block {id} ends but {} (a jump out of a timed block?)",
                match other {
                    Some((b, _)) => format!("block {b} is the one running"),
                    None => "no block is running".into(),
                }
            ),
        ),
    })
}

#[no_mangle]
pub unsafe extern "C" fn BSIM_Event(name: *const c_char) {
    let n = if name.is_null() { "event".into() } else { CStr::from_ptr(name).to_string_lossy().into_owned() };
    with("BSIM_Event", |r| {
        r.trace_line(|| format!("event name={n}"));
        r.user_event(&n)
    })
}

#[no_mangle]
pub extern "C" fn BSIM_Rank() -> c_int {
    with("BSIM_Rank", |r| r.id as c_int)
}

/// Ranks of the world on the calling rank's node (the platform's `[nodes]`): the ranks
/// that share its memory bandwidth in PSIM's closed forms (`--model psim:`).
#[no_mangle]
pub extern "C" fn BSIM_Node_ranks() -> c_int {
    let id = with("BSIM_Node_ranks", |r| r.id) as u64;
    let s = crate::engine::sim();
    node_ranks(&s.plat.nodes, s.n as u64, id) as c_int
}

/// Ranks of `n` on `rank`'s node; a node map's counts are made once.
fn node_ranks(map: &crate::model::NodeMap, n: u64, rank: u64) -> u64 {
    use crate::model::NodeMap;
    static COUNTS: std::sync::OnceLock<std::collections::HashMap<u64, u64>> = std::sync::OnceLock::new();
    match map {
        NodeMap::Block(k) => {
            let k = (*k).max(1);
            k.min(n - rank / k * k)
        }
        NodeMap::List(_) => {
            let c = COUNTS.get_or_init(|| {
                let mut h = std::collections::HashMap::new();
                for r in 0..n {
                    *h.entry(map.node(r)).or_insert(0) += 1;
                }
                h
            });
            c.get(&map.node(rank)).copied().unwrap_or(1)
        }
    }
}

#[no_mangle]
pub extern "C" fn BSIM_Time() -> c_double {
    with("BSIM_Time", |r| r.clock)
}

// ---------------- environment ----------------

#[no_mangle]
pub extern "C" fn LMPI_Init(_argc: *mut c_int, _argv: *mut *mut *mut c_char) -> c_int {
    with("LMPI_Init", |r| r.initialized = true);
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Init_thread(_argc: *mut c_int, _argv: *mut *mut *mut c_char, required: c_int, provided: *mut c_int) -> c_int {
    with("LMPI_Init_thread", |r| r.initialized = true);
    if !provided.is_null() {
        *provided = required.min(3);
    }
    SUCCESS
}

#[no_mangle]
pub extern "C" fn LMPI_Finalize() -> c_int {
    with("LMPI_Finalize", |r| r.finalized = true);
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
    let id = CUR.with(|c| c.get());
    let rank = if id.is_null() { -1 } else { unsafe { (*id).id as i64 } };
    eprintln!("bsim: rank {rank} called LMPI_Abort({code})");
    if mb::on() {
        mb::abort(if code == 0 { 1 } else { code });
    }
    std::process::exit(if code == 0 { 1 } else { code });
}

#[no_mangle]
pub extern "C" fn LMPI_Wtime() -> c_double {
    with("LMPI_Wtime", |r| r.clock)
}

#[no_mangle]
pub extern "C" fn LMPI_Wtick() -> c_double {
    1e-9
}

#[no_mangle]
pub unsafe extern "C" fn LMPI_Get_processor_name(name: *mut c_char, len: *mut c_int) -> c_int {
    let id = with("LMPI_Get_processor_name", |r| r.id);
    let node = crate::engine::sim().plat.nodes.node(id as u64);
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
    } else if b % sz != 0 {
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
                let h = r.add_comm(crate::engine::Comm { ctx, members, me: my, coll_seq: 0, child_seq: 0 });
                if mb::on() {
                    mb::bind_comm(h);
                }
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

pub(crate) unsafe fn data<'a>(buf: *const c_void, bytes: u64) -> Option<&'a [u8]> {
    if buf.is_null() || bytes == 0 {
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
        let h = isend(r, comm, dest, tag, b, data(buf, b), blocking, sync);
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
        let h = irecv(r, comm, src, tag, buf as usize, b);
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
        let h = irecv(r, comm, src, tag, buf as usize, b);
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
        let hr = irecv(r, comm, src, rtag, rbuf as usize, rb);
        if dest != PROC_NULL {
            r.trace_line(|| format!("send peer={dest} tag={stag} bytes={sb} comm={comm}"));
        }
        let hs = isend(r, comm, dest, stag, sb, data(sbuf, sb), false, false);
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
    let copy: Vec<u8> = if buf.is_null() || !crate::engine::sim().payload { vec![] } else { std::slice::from_raw_parts(buf as *const u8, b).to_vec() };
    let sp = if copy.is_empty() { std::ptr::null() } else { copy.as_ptr() as *const c_void };
    LMPI_Sendrecv(sp, count, t, dest, stag, buf, count, t, src, rtag, comm, status)
}

/// The engine handles behind user handles (persistent ones: the active
/// request, REQUEST_NULL when inactive).
pub(crate) fn reqs_of(h: *mut c_int, n: c_int) -> Vec<i32> {
    if n <= 0 || h.is_null() {
        return vec![];
    }
    unsafe { std::slice::from_raw_parts(h, n as usize) }.iter().map(|&x| crate::lmpi_ext::active(x)).collect()
}

/// A user handle whose request completed: REQUEST_NULL, or inactive if persistent.
pub(crate) unsafe fn release(p: *mut c_int) {
    if !crate::lmpi_ext::deactivate(*p) {
        *p = 0;
    }
}

pub(crate) fn check_reqs(r: &Rank, call: &str, hs: &[i32]) {
    for &h in hs {
        if h != 0 && !(if mb::on() { mb::valid_req(h) } else { r.valid_req(h) }) {
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
    hs.iter().map(|&h| h > 0 && if mb::on() { mb::is_recv(h) } else { matches!(r.reqs[h as usize], Some(crate::engine::Req::Recv { .. })) }).collect()
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
    let inner = crate::lmpi_ext::free_persistent(*req);
    with("LMPI_Request_free", |r| {
        let req = &inner;
        if mb::on() {
            mb::request_free(*req)
        } else {
            r.request_free(*req)
        }
    });
    *req = 0;
    SUCCESS
}

// ---------------- collectives ----------------

/// One member's arguments of a collective call (pointers as integers: the
/// last member reads the others' while they are blocked in the meeting).
#[derive(Clone, Copy, Debug)]
pub struct CollArgs {
    pub arrive: f64,
    pub root: i32,
    pub sbuf: usize,
    pub rbuf: usize,
    pub scount: i64,
    pub rcount: i64,
    pub ssize: u64,
    pub rsize: u64,
    pub scounts: usize,
    pub sdispls: usize,
    pub rcounts: usize,
    pub rdispls: usize,
    pub op: i32,
    pub elem: Option<dtype::Elem>,
    pub color: i64,
    pub key: i64,
    pub newctx: u64,
    pub p: usize,
}

impl CollArgs {
    pub fn new(arrive: f64) -> Self {
        CollArgs {
            arrive,
            root: 0,
            sbuf: 0,
            rbuf: 0,
            scount: 0,
            rcount: 0,
            ssize: 0,
            rsize: 0,
            scounts: 0,
            sdispls: 0,
            rcounts: 0,
            rdispls: 0,
            op: 0,
            elem: None,
            color: 0,
            key: 0,
            newctx: 0,
            p: 0,
        }
    }
}

unsafe fn arr(p: usize, n: usize, i: usize) -> i64 {
    if p == 0 || i >= n {
        0
    } else {
        *(p as *const c_int).add(i) as i64
    }
}

/// Members of one collective call must agree on the root, the message size
/// (count x datatype size, so equal type signatures in bytes) and the reduction
/// operator. The error names the first member and the first one that differs
/// (world ranks).
pub fn check_coll(kind: CollKind, a: &[Option<CollArgs>], members: &[u32]) -> Result<(), String> {
    let a: Vec<&CollArgs> = a.iter().flatten().collect();
    if a.len() < 2 {
        return Ok(());
    }
    let differ = |what: &str, f: &dyn Fn(&CollArgs) -> Option<String>| -> Result<(), String> {
        let mut first: Option<(usize, String)> = None;
        for (i, x) in a.iter().enumerate() {
            let Some(v) = f(x) else { continue };
            match &first {
                None => first = Some((i, v)),
                Some((j, w)) if *w != v => {
                    return Err(format!("the members disagree on the {what}: rank {} gives {w}, rank {} gives {v}", members[*j], members[i]))
                }
                _ => {}
            }
        }
        Ok(())
    };
    if kind.rooted() {
        differ("root", &|x| Some(x.root.to_string()))?;
    }
    let bytes = |c: i64, t: u64| format!("{} bytes", c.max(0) as u64 * t);
    match kind {
        CollKind::Bcast | CollKind::Reduce | CollKind::Allreduce => {
            differ("message size", &|x| Some(bytes(x.scount, x.ssize)))?;
        }
        CollKind::Allgather | CollKind::Alltoall => {
            differ("message size", &|x| (x.sbuf != IN_PLACE).then(|| bytes(x.scount, x.ssize)))?;
            differ("receive size", &|x| Some(bytes(x.rcount, x.rsize)))?;
        }
        _ => {}
    }
    if matches!(kind, CollKind::Reduce | CollKind::Allreduce) {
        differ("reduction operator", &|x| Some(x.op.to_string()))?;
    }
    if matches!(kind, CollKind::Gather | CollKind::Scatter) {
        // what a member sends (receives) against the root's per-member block
        let r = a[0].root.max(0) as usize;
        if let Some(root) = a.get(r) {
            for (i, x) in a.iter().enumerate() {
                let (mine, theirs) = if kind == CollKind::Gather {
                    (x.sbuf != IN_PLACE).then(|| (x.scount * x.ssize as i64, root.rcount * root.rsize as i64)).unwrap_or((0, 0))
                } else {
                    (x.rbuf != IN_PLACE).then(|| (x.rcount * x.rsize as i64, root.scount * root.ssize as i64)).unwrap_or((0, 0))
                };
                if i != r && mine != theirs {
                    return Err(format!(
                        "the members disagree on the message size: rank {} {} {mine} bytes, the root (rank {}) {} {theirs} bytes per member",
                        members[i],
                        if kind == CollKind::Gather { "sends" } else { "receives" },
                        members[r],
                        if kind == CollKind::Gather { "receives" } else { "sends" },
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Sizes of a collective for the timing model.
pub fn shape_of(kind: CollKind, a: &[&CollArgs]) -> Shape {
    let p = a.len();
    let root = a[0].root.max(0) as usize;
    let mut matrix = None;
    let block: Vec<u64> = unsafe {
        match kind {
            CollKind::Barrier => vec![0; p],
            CollKind::CommSplit | CollKind::CommDup => vec![8; p],
            CollKind::Bcast | CollKind::Reduce | CollKind::Allreduce => a.iter().map(|x| x.scount as u64 * x.ssize).collect(),
            CollKind::Gather | CollKind::Allgather => {
                a.iter().map(|x| if x.sbuf == IN_PLACE { x.rcount as u64 * x.rsize } else { x.scount as u64 * x.ssize }).collect()
            }
            CollKind::Gatherv | CollKind::Allgatherv => {
                a.iter().enumerate().map(|(i, x)| if x.sbuf == IN_PLACE { arr(x.rcounts, p, i) as u64 * x.rsize } else { x.scount as u64 * x.ssize }).collect()
            }
            CollKind::Scatter => a.iter().map(|x| if x.rbuf == IN_PLACE { x.scount as u64 * x.ssize } else { x.rcount as u64 * x.rsize }).collect(),
            CollKind::Scatterv => a
                .iter()
                .enumerate()
                .map(|(i, x)| if x.rbuf == IN_PLACE { arr(a[root].scounts, p, i) as u64 * a[root].ssize } else { x.rcount as u64 * x.rsize })
                .collect(),
            CollKind::Alltoall => a.iter().map(|x| x.scount as u64 * x.ssize).collect(),
            CollKind::Alltoallv => {
                let m: Vec<Vec<u64>> = a.iter().map(|x| (0..p).map(|j| arr(x.scounts, p, j) as u64 * x.ssize).collect()).collect();
                let b = m.iter().map(|row| row.iter().sum::<u64>() / p as u64).collect();
                matrix = Some(m);
                b
            }
        }
    };
    Shape { kind, root, block, matrix }
}

unsafe fn cp(dst: usize, src: usize, n: u64) {
    if n > 0 && dst != 0 && src != 0 && dst != IN_PLACE && src != IN_PLACE && dst != src {
        std::ptr::copy(src as *const u8, dst as *mut u8, n as usize);
    }
}

/// Payload mode: move the data of a collective between the members' buffers.
pub fn move_data(kind: CollKind, a: &[&CollArgs]) {
    let p = a.len();
    let root = a[0].root.max(0) as usize;
    unsafe {
        match kind {
            CollKind::Bcast => {
                let n = a[root].scount as u64 * a[root].ssize;
                for (i, x) in a.iter().enumerate() {
                    if i != root {
                        cp(x.sbuf, a[root].sbuf, n);
                    }
                }
            }
            CollKind::Reduce | CollKind::Allreduce => {
                let n = (a[0].scount as u64 * a[0].ssize) as usize;
                let input = |x: &CollArgs| if x.sbuf == IN_PLACE { x.rbuf } else { x.sbuf };
                if n == 0 || a.iter().any(|x| input(x) == 0) {
                    return;
                }
                let mut acc = std::slice::from_raw_parts(input(a[0]) as *const u8, n).to_vec();
                let (op, e) = (a[0].op, a[0].elem.unwrap_or(dtype::Elem::Bytes));
                for x in &a[1..] {
                    let b = std::slice::from_raw_parts(input(x) as *const u8, n);
                    if !dtype::combine(op, e, &mut acc, b) {
                        crate::engine::sim()
                            .warn_once("reduce-op", format!("payload mode: operator {op} is not defined on this datatype; result left untouched"));
                        return;
                    }
                }
                for (i, x) in a.iter().enumerate() {
                    if (kind == CollKind::Allreduce || i == root) && x.rbuf != 0 && x.rbuf != IN_PLACE {
                        std::ptr::copy_nonoverlapping(acc.as_ptr(), x.rbuf as *mut u8, n);
                    }
                }
            }
            CollKind::Gather | CollKind::Gatherv => {
                let r = a[root];
                for (i, x) in a.iter().enumerate() {
                    if i == root && x.sbuf == IN_PLACE {
                        continue;
                    }
                    let (off, n) = if kind == CollKind::Gather {
                        (i as u64 * r.rcount as u64 * r.rsize, r.rcount as u64 * r.rsize)
                    } else {
                        (arr(r.rdispls, p, i) as u64 * r.rsize, arr(r.rcounts, p, i) as u64 * r.rsize)
                    };
                    cp(r.rbuf + off as usize, x.sbuf, n);
                }
            }
            CollKind::Scatter | CollKind::Scatterv => {
                let r = a[root];
                for (i, x) in a.iter().enumerate() {
                    if i == root && x.rbuf == IN_PLACE {
                        continue;
                    }
                    let (off, n) = if kind == CollKind::Scatter {
                        (i as u64 * r.scount as u64 * r.ssize, r.scount as u64 * r.ssize)
                    } else {
                        (arr(r.sdispls, p, i) as u64 * r.ssize, arr(r.scounts, p, i) as u64 * r.ssize)
                    };
                    cp(x.rbuf, r.sbuf + off as usize, n);
                }
            }
            CollKind::Allgather | CollKind::Allgatherv => {
                for (j, dst) in a.iter().enumerate() {
                    for (i, src) in a.iter().enumerate() {
                        let (off, n) = if kind == CollKind::Allgather {
                            (i as u64 * dst.rcount as u64 * dst.rsize, dst.rcount as u64 * dst.rsize)
                        } else {
                            (arr(dst.rdispls, p, i) as u64 * dst.rsize, arr(dst.rcounts, p, i) as u64 * dst.rsize)
                        };
                        if i == j && src.sbuf == IN_PLACE {
                            continue;
                        }
                        let from = if src.sbuf == IN_PLACE {
                            let soff =
                                if kind == CollKind::Allgather { i as u64 * src.rcount as u64 * src.rsize } else { arr(src.rdispls, p, i) as u64 * src.rsize };
                            src.rbuf + soff as usize
                        } else {
                            src.sbuf
                        };
                        cp(dst.rbuf + off as usize, from, n);
                    }
                }
            }
            CollKind::Alltoall | CollKind::Alltoallv => {
                for (j, dst) in a.iter().enumerate() {
                    for (i, src) in a.iter().enumerate() {
                        let (soff, roff, n) = if kind == CollKind::Alltoall {
                            (j as u64 * src.scount as u64 * src.ssize, i as u64 * dst.rcount as u64 * dst.rsize, dst.rcount as u64 * dst.rsize)
                        } else {
                            (arr(src.sdispls, p, j) as u64 * src.ssize, arr(dst.rdispls, p, i) as u64 * dst.rsize, arr(dst.rcounts, p, i) as u64 * dst.rsize)
                        };
                        cp(dst.rbuf + roff as usize, src.sbuf + soff as usize, n);
                    }
                }
            }
            CollKind::Barrier | CollKind::CommSplit | CollKind::CommDup => {}
        }
    }
}

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
        if nb && mb::on() {
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
