/* MPI for the TCA/IB hybrid layer (runtime/lib/tca). Handles cross into Rust as
 * MPI_Fint, as in runtime/lib/xmp's shim. Names start with xt_ so both shims link
 * into one program. */
#include <mpi.h>
#include <string.h>

typedef MPI_Fint F;
static MPI_Comm C(F c) { return MPI_Comm_f2c(c); }

void xt_init(void) {
  int flag = 0;
  MPI_Initialized(&flag);
  if (!flag) MPI_Init(NULL, NULL);
}
void xt_finalize(void) {
  int flag = 0;
  MPI_Finalized(&flag);
  if (!flag) MPI_Finalize();
}
void xt_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }
double xt_wtime(void) { return MPI_Wtime(); }
F xt_comm_world(void) { return MPI_Comm_c2f(MPI_COMM_WORLD); }
F xt_comm_dup(F c) { MPI_Comm n; MPI_Comm_dup(C(c), &n); return MPI_Comm_c2f(n); }
int xt_comm_rank(F c) { int r; MPI_Comm_rank(C(c), &r); return r; }
int xt_comm_size(F c) { int r; MPI_Comm_size(C(c), &r); return r; }
F xt_comm_split(F c, int color, int key) {
  MPI_Comm n;
  MPI_Comm_split(C(c), color, key, &n);
  return MPI_Comm_c2f(n);
}
F xt_comm_split_shared(F c) {
  MPI_Comm n;
  int r;
  MPI_Comm_rank(C(c), &r);
  MPI_Comm_split_type(C(c), MPI_COMM_TYPE_SHARED, r, MPI_INFO_NULL, &n);
  return MPI_Comm_c2f(n);
}
void xt_barrier(F c) { MPI_Barrier(C(c)); }
void xt_progress(void) {
  int flag;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
}
void xt_allgather(const void *s, int bytes, void *r, F c) {
  MPI_Allgather(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, C(c));
}
/* MPI_Win_allocate_shared over c; *base: this process's part. The window is held
 * in one lock_all epoch for its life (unified model: loads and stores from any
 * member, ordered by the atomics of the caller). */
F xt_win_shared(F c, long bytes, void **base) {
  MPI_Win w;
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  MPI_Win_allocate_shared((MPI_Aint)bytes, 64, info, C(c), base, &w);
  MPI_Info_free(&info);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, w);
  return MPI_Win_c2f(w);
}
void *xt_win_query(F w, int rank) {
  MPI_Aint sz;
  int du;
  void *p = NULL;
  MPI_Win_shared_query(MPI_Win_f2c(w), rank, &sz, &du, &p);
  return p;
}
void xt_win_sync(F w) { MPI_Win_sync(MPI_Win_f2c(w)); }
void xt_win_free(F w) {
  MPI_Win x = MPI_Win_f2c(w);
  MPI_Win_unlock_all(x);
  MPI_Win_free(&x);
}
/* Byte point to point (the InfiniBand stand-in). */
F xt_isend(const void *buf, int bytes, int dest, int tag, F c) {
  MPI_Request r;
  MPI_Isend(buf, bytes, MPI_BYTE, dest, tag, C(c), &r);
  return MPI_Request_c2f(r);
}
F xt_irecv(void *buf, int bytes, int src, int tag, F c) {
  MPI_Request r;
  MPI_Irecv(buf, bytes, MPI_BYTE, src, tag, C(c), &r);
  return MPI_Request_c2f(r);
}
void xt_waitall(int n, F *reqs) {
  for (int i = 0; i < n; i++) {
    MPI_Request r = MPI_Request_f2c(reqs[i]);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
}
/* inout = in op inout (MPICH's MPIR_Reduce_local order). 0 = success. */
int xt_reduce_local(const void *in, void *inout, int count, F type, F op) {
  return MPI_Reduce_local(in, inout, count, MPI_Type_f2c(type), MPI_Op_f2c(op));
}
int xt_type_size(F type) {
  int s = 0;
  MPI_Type_size(MPI_Type_f2c(type), &s);
  return s;
}
/* MPICH's own collectives (the reference and the MPI-only baseline). */
void xt_mpi_bcast(void *buf, int bytes, int root, F c) { MPI_Bcast(buf, bytes, MPI_BYTE, root, C(c)); }
void xt_mpi_allgather(const void *s, int bytes, void *r, F c) {
  MPI_Allgather(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, C(c));
}
int xt_mpi_allreduce(void *buf, int count, F type, F op, F c) {
  return MPI_Allreduce(MPI_IN_PLACE, buf, count, MPI_Type_f2c(type), MPI_Op_f2c(op), C(c));
}
/* Handles of the builtin types and operators the tests and benchmarks use:
 * 0 int, 1 long long, 2 float, 3 double, 4 unsigned char; ops 0 sum, 1 prod,
 * 2 max, 3 min, 4 band, 5 bor, 6 bxor, 7 land, 8 lor. */
F xt_type(int t) {
  switch (t) {
  case 0: return MPI_Type_c2f(MPI_INT);
  case 1: return MPI_Type_c2f(MPI_LONG_LONG);
  case 2: return MPI_Type_c2f(MPI_FLOAT);
  case 3: return MPI_Type_c2f(MPI_DOUBLE);
  case 4: return MPI_Type_c2f(MPI_UNSIGNED_CHAR);
  }
  return MPI_Type_c2f(MPI_DATATYPE_NULL);
}
F xt_op(int o) {
  switch (o) {
  case 0: return MPI_Op_c2f(MPI_SUM);
  case 1: return MPI_Op_c2f(MPI_PROD);
  case 2: return MPI_Op_c2f(MPI_MAX);
  case 3: return MPI_Op_c2f(MPI_MIN);
  case 4: return MPI_Op_c2f(MPI_BAND);
  case 5: return MPI_Op_c2f(MPI_BOR);
  case 6: return MPI_Op_c2f(MPI_BXOR);
  case 7: return MPI_Op_c2f(MPI_LAND);
  case 8: return MPI_Op_c2f(MPI_LOR);
  }
  return MPI_Op_c2f(MPI_OP_NULL);
}
