//! The C shim (`csrc/shim.c`). MPI handles are `MPI_Fint` values.

use std::ffi::{c_char, c_int, c_long, c_void};

pub(crate) type Fint = c_int;

extern "C" {
    pub(crate) fn xs_init(argc: *mut c_int, argv: *mut *mut *mut c_char);
    pub(crate) fn xs_finalize();
    pub(crate) fn xs_abort(code: c_int);
    pub(crate) fn xs_mpi_active() -> c_int;
    pub(crate) fn xs_flush();
    pub(crate) fn xs_type_free(t: Fint);
    pub(crate) fn xs_request_free(r: Fint);
    pub(crate) fn xs_wtime() -> f64;
    pub(crate) fn xs_wtick() -> f64;
    pub(crate) fn xs_comm_world() -> Fint;
    pub(crate) fn xs_comm_null() -> Fint;
    pub(crate) fn xs_comm_rank(c: Fint) -> c_int;
    pub(crate) fn xs_comm_size(c: Fint) -> c_int;
    pub(crate) fn xs_team_cpus(c: Fint) -> c_int;
    pub(crate) fn xs_pinned_team(c: Fint) -> c_int;
    pub(crate) fn xs_comm_dup(c: Fint) -> Fint;
    pub(crate) fn xs_comm_split(c: Fint, color: c_int, key: c_int) -> Fint;
    pub(crate) fn xs_comm_create_group(c: Fint, n: c_int, ranks: *const c_int, tag: c_int) -> Fint;
    pub(crate) fn xs_barrier(c: Fint);
    pub(crate) fn xs_progress();
    pub(crate) fn xs_bcast(buf: *mut c_void, bytes: c_long, root: c_int, c: Fint);
    pub(crate) fn xs_allgather(s: *const c_void, bytes: c_int, r: *mut c_void, c: Fint);
    pub(crate) fn xs_alltoallv(s: *const c_void, sc: *const c_int, sd: *const c_int, r: *mut c_void, rc: *const c_int, rd: *const c_int, c: Fint);
    pub(crate) fn xs_type_f(ty: c_int) -> Fint;
    pub(crate) fn xs_op_f(op: c_int) -> Fint;
    pub(crate) fn xs_allreduce(buf: *mut c_void, count: c_int, ty: c_int, op: c_int, c: Fint) -> c_int;
    pub(crate) fn xs_iallreduce(buf: *mut c_void, count: c_int, ty: c_int, op: c_int, c: Fint, req: *mut Fint) -> c_int;
    pub(crate) fn xs_reduce_local_sum(inbuf: *const c_void, inout: *mut c_void, count: c_int, ty: c_int) -> c_int;
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn xs_sendrecv_bytes(s: *const c_void, sbytes: c_int, dest: c_int, r: *mut c_void, rbytes: c_int, src: c_int, tag: c_int, c: Fint);
    pub(crate) fn xs_hugepage(p: *mut c_void, bytes: usize);
    pub(crate) fn xs_ld_to_double(p: *const c_void) -> f64;
    pub(crate) fn xs_type_subarray(ndims: c_int, sizes: *const c_int, subs: *const c_int, starts: *const c_int, elem: c_int) -> Fint;
    pub(crate) fn xs_type_size(t: Fint) -> c_int;
    pub(crate) fn xs_pack(base: *const c_void, t: Fint, buf: *mut c_void, bytes: c_int);
    pub(crate) fn xs_unpack(buf: *const c_void, bytes: c_int, base: *mut c_void, t: Fint);
    pub(crate) fn xs_send_init_bytes(buf: *mut c_void, bytes: c_int, dest: c_int, tag: c_int, c: Fint) -> Fint;
    pub(crate) fn xs_recv_init_bytes(buf: *mut c_void, bytes: c_int, src: c_int, tag: c_int, c: Fint) -> Fint;
    pub(crate) fn xs_startall(n: c_int, reqs: *const Fint);
    pub(crate) fn xs_waitall(n: c_int, reqs: *const Fint);
    pub(crate) fn xs_bcast_typed(buf: *mut c_void, ty: Fint, root: c_int, c: Fint);
    pub(crate) fn xs_comm_split_shared(c: Fint) -> Fint;
    pub(crate) fn xs_translate_ranks(from: Fint, n: c_int, ranks: *const c_int, to: Fint, out: *mut c_int);
    pub(crate) fn xs_win_shared(c: Fint, bytes: c_long, base: *mut *mut c_void) -> Fint;
    pub(crate) fn xs_win_query(w: Fint, rank: c_int) -> *mut c_void;
    pub(crate) fn xs_win_sync(w: Fint);
    pub(crate) fn xs_win_free(w: Fint);
}

/// MPI_COMM_NULL as an Fint (queried once: its value differs between MPIs).
pub(crate) fn comm_null() -> Fint {
    // SAFETY: pure query of a constant.
    unsafe { xs_comm_null() }
}
