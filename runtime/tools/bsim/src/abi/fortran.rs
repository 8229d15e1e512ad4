//! Fortran bindings (gfortran mangling: lower case + `_`, every argument by
//! reference, hidden character lengths at the end). Handles are the C ones.
//! LMPI_STATUS_IGNORE, LMPI_STATUSES_IGNORE and LMPI_IN_PLACE are members of
//! the common block /lmpi_fconst/ declared in lmpif.h and recognised by address.

#![allow(non_upper_case_globals, clippy::missing_safety_doc, clippy::too_many_arguments)]

use super::bsim as b;
use super::lmpi::{self as c, LmpiStatus};
use crate::kernel::IN_PLACE;
use std::ffi::{c_char, c_double, c_int, c_void};

/// The common block /lmpi_fconst/: status_ignore(6), statuses_ignore(6), in_place
/// (aligned as gfortran aligns common blocks).
#[repr(C, align(32))]
pub struct FConst(pub [c_int; 13]);

#[no_mangle]
pub static mut lmpi_fconst_: FConst = FConst([0; 13]);

fn status_ignore() -> usize {
    std::ptr::addr_of!(lmpi_fconst_) as usize
}

unsafe fn st(p: *mut c_int) -> *mut LmpiStatus {
    let a = p as usize;
    if p.is_null() || a == status_ignore() || a == status_ignore() + 6 * 4 {
        std::ptr::null_mut()
    } else {
        p as *mut LmpiStatus
    }
}

unsafe fn inp(p: *const c_void) -> *const c_void {
    if p as usize == status_ignore() + 12 * 4 {
        IN_PLACE as *const c_void
    } else {
        p
    }
}

unsafe fn ok(ierr: *mut c_int) {
    if !ierr.is_null() {
        *ierr = 0;
    }
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_init_(ierr: *mut c_int) {
    c::LMPI_Init(std::ptr::null_mut(), std::ptr::null_mut());
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_init_thread_(req: *const c_int, prov: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Init_thread(std::ptr::null_mut(), std::ptr::null_mut(), *req, prov);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_finalize_(ierr: *mut c_int) {
    c::LMPI_Finalize();
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_initialized_(flag: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Initialized(flag);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_abort_(comm: *const c_int, code: *const c_int, _ierr: *mut c_int) {
    c::LMPI_Abort(*comm, *code);
}

#[no_mangle]
pub extern "C" fn lmpi_wtime_() -> c_double {
    c::LMPI_Wtime()
}

#[no_mangle]
pub extern "C" fn lmpi_wtick_() -> c_double {
    c::LMPI_Wtick()
}

#[no_mangle]
pub unsafe extern "C" fn bsim_add_time_(t: *const c_double) {
    b::BSIM_Add_time(*t)
}

#[no_mangle]
pub unsafe extern "C" fn bsim_carry_(flags: *const c_int) {
    b::BSIM_Carry(*flags)
}

#[no_mangle]
pub unsafe extern "C" fn bsim_block_begin_(id: *const c_int) {
    b::BSIM_Block_begin(*id)
}

#[no_mangle]
pub unsafe extern "C" fn bsim_block_end_(id: *const c_int) {
    b::BSIM_Block_end(*id)
}

#[no_mangle]
pub extern "C" fn bsim_rank_() -> c_int {
    b::BSIM_Rank()
}

#[no_mangle]
pub extern "C" fn bsim_node_ranks_() -> c_int {
    b::BSIM_Node_ranks()
}

#[no_mangle]
pub unsafe extern "C" fn bsim_event_(name: *const c_char, len: usize) {
    let s = String::from_utf8_lossy(std::slice::from_raw_parts(name as *const u8, len)).trim_end().to_string();
    let cs = std::ffi::CString::new(s).unwrap_or_default();
    b::BSIM_Event(cs.as_ptr())
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_comm_rank_(comm: *const c_int, rank: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Comm_rank(*comm, rank);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_comm_size_(comm: *const c_int, size: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Comm_size(*comm, size);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_comm_dup_(comm: *const c_int, new: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Comm_dup(*comm, new);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_comm_split_(comm: *const c_int, color: *const c_int, key: *const c_int, new: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Comm_split(*comm, *color, *key, new);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_comm_free_(comm: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Comm_free(comm);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_type_size_(t: *const c_int, size: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Type_size(*t, size);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_get_count_(status: *mut c_int, t: *const c_int, count: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Get_count(status as *const LmpiStatus, *t, count);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_get_processor_name_(name: *mut c_char, len: *mut c_int, ierr: *mut c_int, name_len: usize) {
    let mut buf = [0 as c_char; 300];
    let mut l = 0;
    c::LMPI_Get_processor_name(buf.as_mut_ptr(), &mut l);
    let n = (l as usize).min(name_len);
    std::ptr::copy_nonoverlapping(buf.as_ptr(), name, n);
    for i in n..name_len {
        *name.add(i) = b' ' as c_char;
    }
    *len = n as c_int;
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_send_(
    b: *const c_void,
    n: *const c_int,
    t: *const c_int,
    d: *const c_int,
    tag: *const c_int,
    comm: *const c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Send(b, *n, *t, *d, *tag, *comm);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_ssend_(
    b: *const c_void,
    n: *const c_int,
    t: *const c_int,
    d: *const c_int,
    tag: *const c_int,
    comm: *const c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Ssend(b, *n, *t, *d, *tag, *comm);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_isend_(
    b: *const c_void,
    n: *const c_int,
    t: *const c_int,
    d: *const c_int,
    tag: *const c_int,
    comm: *const c_int,
    req: *mut c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Isend(b, *n, *t, *d, *tag, *comm, req);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_irecv_(
    b: *mut c_void,
    n: *const c_int,
    t: *const c_int,
    s: *const c_int,
    tag: *const c_int,
    comm: *const c_int,
    req: *mut c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Irecv(b, *n, *t, *s, *tag, *comm, req);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_recv_(
    b: *mut c_void,
    n: *const c_int,
    t: *const c_int,
    s: *const c_int,
    tag: *const c_int,
    comm: *const c_int,
    status: *mut c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Recv(b, *n, *t, *s, *tag, *comm, st(status));
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_sendrecv_(
    sb: *const c_void,
    sn: *const c_int,
    stp: *const c_int,
    d: *const c_int,
    stag: *const c_int,
    rb: *mut c_void,
    rn: *const c_int,
    rtp: *const c_int,
    s: *const c_int,
    rtag: *const c_int,
    comm: *const c_int,
    status: *mut c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Sendrecv(sb, *sn, *stp, *d, *stag, rb, *rn, *rtp, *s, *rtag, *comm, st(status));
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_wait_(req: *mut c_int, status: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Wait(req, st(status));
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_waitall_(n: *const c_int, reqs: *mut c_int, statuses: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Waitall(*n, reqs, st(statuses));
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_waitany_(n: *const c_int, reqs: *mut c_int, index: *mut c_int, status: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Waitany(*n, reqs, index, st(status));
    if *index >= 0 {
        *index += 1;
    }
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_test_(req: *mut c_int, flag: *mut c_int, status: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Test(req, flag, st(status));
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_testall_(n: *const c_int, reqs: *mut c_int, flag: *mut c_int, statuses: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Testall(*n, reqs, flag, st(statuses));
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_barrier_(comm: *const c_int, ierr: *mut c_int) {
    c::LMPI_Barrier(*comm);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_bcast_(b: *mut c_void, n: *const c_int, t: *const c_int, root: *const c_int, comm: *const c_int, ierr: *mut c_int) {
    c::LMPI_Bcast(b, *n, *t, *root, *comm);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_reduce_(
    s: *const c_void,
    d: *mut c_void,
    n: *const c_int,
    t: *const c_int,
    op: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Reduce(inp(s), d, *n, *t, *op, *root, *comm);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_allreduce_(
    s: *const c_void,
    d: *mut c_void,
    n: *const c_int,
    t: *const c_int,
    op: *const c_int,
    comm: *const c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Allreduce(inp(s), d, *n, *t, *op, *comm);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_gather_(
    s: *const c_void,
    sn: *const c_int,
    stp: *const c_int,
    d: *mut c_void,
    rn: *const c_int,
    rtp: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Gather(inp(s), *sn, *stp, d, *rn, *rtp, *root, *comm);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_gatherv_(
    s: *const c_void,
    sn: *const c_int,
    stp: *const c_int,
    d: *mut c_void,
    rns: *const c_int,
    displs: *const c_int,
    rtp: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Gatherv(inp(s), *sn, *stp, d, rns, displs, *rtp, *root, *comm);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_scatter_(
    s: *const c_void,
    sn: *const c_int,
    stp: *const c_int,
    d: *mut c_void,
    rn: *const c_int,
    rtp: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Scatter(s, *sn, *stp, inp(d) as *mut c_void, *rn, *rtp, *root, *comm);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_scatterv_(
    s: *const c_void,
    sns: *const c_int,
    displs: *const c_int,
    stp: *const c_int,
    d: *mut c_void,
    rn: *const c_int,
    rtp: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Scatterv(s, sns, displs, *stp, inp(d) as *mut c_void, *rn, *rtp, *root, *comm);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_allgather_(
    s: *const c_void,
    sn: *const c_int,
    stp: *const c_int,
    d: *mut c_void,
    rn: *const c_int,
    rtp: *const c_int,
    comm: *const c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Allgather(inp(s), *sn, *stp, d, *rn, *rtp, *comm);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_allgatherv_(
    s: *const c_void,
    sn: *const c_int,
    stp: *const c_int,
    d: *mut c_void,
    rns: *const c_int,
    displs: *const c_int,
    rtp: *const c_int,
    comm: *const c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Allgatherv(inp(s), *sn, *stp, d, rns, displs, *rtp, *comm);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_alltoall_(
    s: *const c_void,
    sn: *const c_int,
    stp: *const c_int,
    d: *mut c_void,
    rn: *const c_int,
    rtp: *const c_int,
    comm: *const c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Alltoall(s, *sn, *stp, d, *rn, *rtp, *comm);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_alltoallv_(
    s: *const c_void,
    sns: *const c_int,
    sd: *const c_int,
    stp: *const c_int,
    d: *mut c_void,
    rns: *const c_int,
    rd: *const c_int,
    rtp: *const c_int,
    comm: *const c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Alltoallv(s, sns, sd, *stp, d, rns, rd, *rtp, *comm);
    ok(ierr)
}

// ---------------- probe, persistent requests, Waitsome/Testany/Testsome ----------------

use super::lmpi_ext as x;

#[no_mangle]
pub unsafe extern "C" fn lmpi_probe_(s: *const c_int, tag: *const c_int, comm: *const c_int, status: *mut c_int, ierr: *mut c_int) {
    x::LMPI_Probe(*s, *tag, *comm, st(status));
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_iprobe_(s: *const c_int, tag: *const c_int, comm: *const c_int, flag: *mut c_int, status: *mut c_int, ierr: *mut c_int) {
    x::LMPI_Iprobe(*s, *tag, *comm, flag, st(status));
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_send_init_(
    b: *const c_void,
    n: *const c_int,
    t: *const c_int,
    d: *const c_int,
    tag: *const c_int,
    comm: *const c_int,
    req: *mut c_int,
    ierr: *mut c_int,
) {
    x::LMPI_Send_init(b, *n, *t, *d, *tag, *comm, req);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_recv_init_(
    b: *mut c_void,
    n: *const c_int,
    t: *const c_int,
    s: *const c_int,
    tag: *const c_int,
    comm: *const c_int,
    req: *mut c_int,
    ierr: *mut c_int,
) {
    x::LMPI_Recv_init(b, *n, *t, *s, *tag, *comm, req);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_start_(req: *mut c_int, ierr: *mut c_int) {
    x::LMPI_Start(req);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_startall_(n: *const c_int, reqs: *mut c_int, ierr: *mut c_int) {
    x::LMPI_Startall(*n, reqs);
    ok(ierr)
}

/// Fortran indices count from 1.
unsafe fn one_based(out: c_int, idx: *mut c_int) {
    if out != crate::kernel::UNDEFINED {
        for k in 0..out.max(0) as usize {
            *idx.add(k) += 1;
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_waitsome_(n: *const c_int, reqs: *mut c_int, out: *mut c_int, idx: *mut c_int, statuses: *mut c_int, ierr: *mut c_int) {
    x::LMPI_Waitsome(*n, reqs, out, idx, st(statuses));
    one_based(*out, idx);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_testsome_(n: *const c_int, reqs: *mut c_int, out: *mut c_int, idx: *mut c_int, statuses: *mut c_int, ierr: *mut c_int) {
    x::LMPI_Testsome(*n, reqs, out, idx, st(statuses));
    one_based(*out, idx);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_testany_(n: *const c_int, reqs: *mut c_int, index: *mut c_int, flag: *mut c_int, status: *mut c_int, ierr: *mut c_int) {
    x::LMPI_Testany(*n, reqs, index, flag, st(status));
    if *index >= 0 {
        *index += 1;
    }
    ok(ierr)
}

// ---------------- nonblocking collectives ----------------

#[no_mangle]
pub unsafe extern "C" fn lmpi_ibarrier_(comm: *const c_int, req: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Ibarrier(*comm, req);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_ibcast_(
    b: *mut c_void,
    n: *const c_int,
    t: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    req: *mut c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Ibcast(b, *n, *t, *root, *comm, req);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_ireduce_(
    s: *const c_void,
    d: *mut c_void,
    n: *const c_int,
    t: *const c_int,
    op: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    req: *mut c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Ireduce(inp(s), d, *n, *t, *op, *root, *comm, req);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_iallreduce_(
    s: *const c_void,
    d: *mut c_void,
    n: *const c_int,
    t: *const c_int,
    op: *const c_int,
    comm: *const c_int,
    req: *mut c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Iallreduce(inp(s), d, *n, *t, *op, *comm, req);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_iallgather_(
    s: *const c_void,
    sn: *const c_int,
    stp: *const c_int,
    d: *mut c_void,
    rn: *const c_int,
    rtp: *const c_int,
    comm: *const c_int,
    req: *mut c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Iallgather(inp(s), *sn, *stp, d, *rn, *rtp, *comm, req);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_ialltoall_(
    s: *const c_void,
    sn: *const c_int,
    stp: *const c_int,
    d: *mut c_void,
    rn: *const c_int,
    rtp: *const c_int,
    comm: *const c_int,
    req: *mut c_int,
    ierr: *mut c_int,
) {
    c::LMPI_Ialltoall(inp(s), *sn, *stp, d, *rn, *rtp, *comm, req);
    ok(ierr)
}

#[no_mangle]
pub unsafe extern "C" fn lmpi_request_free_(req: *mut c_int, ierr: *mut c_int) {
    c::LMPI_Request_free(req);
    ok(ierr)
}
