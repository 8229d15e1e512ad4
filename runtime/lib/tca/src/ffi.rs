//! The C shim (`csrc/tca_shim.c`). MPI handles are `MPI_Fint` values.

use std::ffi::{c_int, c_long, c_void};

pub type Fint = c_int;

extern "C" {
    pub fn xt_init();
    pub fn xt_finalize();
    pub fn xt_abort(code: c_int);
    pub fn xt_wtime() -> f64;
    pub fn xt_comm_world() -> Fint;
    pub fn xt_comm_dup(c: Fint) -> Fint;
    pub fn xt_comm_rank(c: Fint) -> c_int;
    pub fn xt_comm_size(c: Fint) -> c_int;
    pub fn xt_comm_split(c: Fint, color: c_int, key: c_int) -> Fint;
    pub fn xt_comm_split_shared(c: Fint) -> Fint;
    pub fn xt_barrier(c: Fint);
    pub fn xt_progress();
    pub fn xt_allgather(s: *const c_void, bytes: c_int, r: *mut c_void, c: Fint);
    pub fn xt_win_shared(c: Fint, bytes: c_long, base: *mut *mut c_void) -> Fint;
    pub fn xt_win_query(w: Fint, rank: c_int) -> *mut c_void;
    pub fn xt_win_sync(w: Fint);
    pub fn xt_win_free(w: Fint);
    pub fn xt_isend(buf: *const c_void, bytes: c_int, dest: c_int, tag: c_int, c: Fint) -> Fint;
    pub fn xt_irecv(buf: *mut c_void, bytes: c_int, src: c_int, tag: c_int, c: Fint) -> Fint;
    pub fn xt_waitall(n: c_int, reqs: *mut Fint);
    pub fn xt_reduce_local(inb: *const c_void, inout: *mut c_void, count: c_int, ty: Fint, op: Fint) -> c_int;
    pub fn xt_type_size(ty: Fint) -> c_int;
    pub fn xt_mpi_bcast(buf: *mut c_void, bytes: c_int, root: c_int, c: Fint);
    pub fn xt_mpi_allgather(s: *const c_void, bytes: c_int, r: *mut c_void, c: Fint);
    pub fn xt_mpi_allreduce(buf: *mut c_void, count: c_int, ty: Fint, op: Fint, c: Fint) -> c_int;
    pub fn xt_type(t: c_int) -> Fint;
    pub fn xt_op(o: c_int) -> Fint;
}
