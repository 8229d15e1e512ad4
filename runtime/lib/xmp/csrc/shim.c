/* The only file that includes mpi.h. MPI handles cross into Rust as MPI_Fint
 * (MPI_*_c2f / MPI_*_f2c), so the Rust side is the same for MPICH (int handles)
 * and Open MPI (pointer handles). Also holds xmp_malloc, which is variadic. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#endif
#include <mpi.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef MPI_Fint F;

static MPI_Comm C(F c) { return MPI_Comm_f2c(c); }

void xs_init(int *argc, char ***argv) {
  int flag = 0;
  MPI_Initialized(&flag);
  if (!flag) MPI_Init(argc, argv);
}
void xs_finalize(void) {
  int flag = 0;
  MPI_Finalized(&flag);
  if (!flag) MPI_Finalize();
}
/* 1 between MPI_Init and MPI_Finalize. */
int xs_mpi_active(void) {
  int i = 0, f = 0;
  MPI_Initialized(&i);
  if (!i) return 0;
  MPI_Finalized(&f);
  return !f;
}
/* MPI_Abort when MPI is up (before MPI_Init / after MPI_Finalize it is invalid:
 * the caller then exits by itself). */
void xs_abort(int code) {
  if (xs_mpi_active()) MPI_Abort(MPI_COMM_WORLD, code);
}
/* Flush C stdio (the program's printf output) before an abort. */
void xs_flush(void) { fflush(NULL); }
/* Handle release at xmpc_finalize: MPICH reports handles still allocated at
 * MPI_Finalize ("yaksa: N leaked handle pool objects"). */
void xs_type_free(F t) {
  MPI_Datatype d = MPI_Type_f2c(t);
  if (d != MPI_DATATYPE_NULL) MPI_Type_free(&d);
}
void xs_request_free(F r) {
  MPI_Request q = MPI_Request_f2c(r);
  if (q != MPI_REQUEST_NULL) MPI_Request_free(&q);
}
double xs_wtime(void) { return MPI_Wtime(); }
double xs_wtick(void) { return MPI_Wtick(); }
F xs_comm_world(void) { return MPI_Comm_c2f(MPI_COMM_WORLD); }
F xs_comm_null(void) { return MPI_Comm_c2f(MPI_COMM_NULL); }
int xs_comm_rank(F c) { int r; MPI_Comm_rank(C(c), &r); return r; }
int xs_comm_size(F c) { int r; MPI_Comm_size(C(c), &r); return r; }
F xs_comm_dup(F c) { MPI_Comm n; MPI_Comm_dup(C(c), &n); return MPI_Comm_c2f(n); }
/* color < 0: MPI_UNDEFINED (the result is MPI_COMM_NULL). */
F xs_comm_split(F c, int color, int key) {
  MPI_Comm n;
  MPI_Comm_split(C(c), color < 0 ? MPI_UNDEFINED : color, key, &n);
  return MPI_Comm_c2f(n);
}
/* Collective over the listed ranks of `c` only (MPI-3), so a task's nodes can
 * build their communicator without the others. */
F xs_comm_create_group(F c, int n, const int *ranks, int tag) {
  MPI_Group g, sub;
  MPI_Comm n2;
  MPI_Comm_group(C(c), &g);
  MPI_Group_incl(g, n, ranks, &sub);
  MPI_Comm_create_group(C(c), sub, tag, &n2);
  MPI_Group_free(&sub);
  MPI_Group_free(&g);
  return MPI_Comm_c2f(n2);
}
void xs_barrier(F c) { MPI_Barrier(C(c)); }
/* One turn of MPI progress (barrier.rs calls it while waiting on FBS flags):
 * a probe matches nothing it takes, but runs MPICH's progress engine. */
void xs_progress(void) {
  int flag;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
}
void xs_bcast(void *buf, long bytes, int root, F c) {
  char *p = buf;
  while (bytes > 0) {
    int n = bytes > (1 << 30) ? (1 << 30) : (int)bytes;
    MPI_Bcast(p, n, MPI_BYTE, root, C(c));
    p += n;
    bytes -= n;
  }
}
void xs_allgather(const void *s, int bytes, void *r, F c) {
  MPI_Allgather(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, C(c));
}
void xs_alltoallv(const void *s, const int *sc, const int *sd, void *r, const int *rc, const int *rd, F c) {
  MPI_Alltoallv(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, C(c));
}

/* xmpc type / op codes (xmpc_rt.h) → MPI. Returns 0 when unsupported. */
static MPI_Datatype dtype(int t) {
  switch (t) {
  case 0: return MPI_CHAR;
  case 1: return MPI_UNSIGNED_CHAR;
  case 2: return MPI_SHORT;
  case 3: return MPI_UNSIGNED_SHORT;
  case 4: return MPI_INT;
  case 5: return MPI_UNSIGNED;
  case 6: return MPI_LONG;
  case 7: return MPI_UNSIGNED_LONG;
  case 8: return MPI_LONG_LONG;
  case 9: return MPI_UNSIGNED_LONG_LONG;
  case 10: return MPI_FLOAT;
  case 11: return MPI_DOUBLE;
  case 12: return MPI_LONG_DOUBLE;
  case 13: return MPI_C_FLOAT_COMPLEX;
  case 14: return MPI_C_DOUBLE_COMPLEX;
  case 15: return MPI_C_BOOL;
  }
  return MPI_DATATYPE_NULL;
}
static MPI_Op mop(int o) {
  switch (o) {
  case 0: return MPI_SUM;
  case 1: return MPI_PROD;
  case 2: return MPI_BAND;
  case 3: return MPI_BOR;
  case 4: return MPI_BXOR;
  case 5: return MPI_LAND;
  case 6: return MPI_LOR;
  case 7: case 9: case 11: return MPI_MAX;
  case 8: case 10: case 12: return MPI_MIN;
  }
  return MPI_OP_NULL;
}
/* The handles of dtype()/mop() (the TCA hybrid layer takes MPI handles). */
F xs_type_f(int t) { return MPI_Type_c2f(dtype(t)); }
F xs_op_f(int o) { return MPI_Op_c2f(mop(o)); }
/* Returns the MPI error code (0 = success); errors are returned, not fatal. */
int xs_allreduce(void *buf, int count, int type, int op, F c) {
  MPI_Datatype t = dtype(type);
  MPI_Op o = mop(op);
  if (t == MPI_DATATYPE_NULL || o == MPI_OP_NULL) return -1;
  MPI_Comm cc = C(c);
  MPI_Errhandler old;
  MPI_Comm_get_errhandler(cc, &old);
  MPI_Comm_set_errhandler(cc, MPI_ERRORS_RETURN);
  int rc = MPI_Allreduce(MPI_IN_PLACE, buf, count, t, o, cc);
  MPI_Comm_set_errhandler(cc, old);
  return rc;
}
/* Nonblocking MPI_Iallreduce in place; *req: the request to wait for. Returns the
 * MPI error code (0 = success) as xs_allreduce. */
int xs_iallreduce(void *buf, int count, int type, int op, F c, F *req) {
  MPI_Datatype t = dtype(type);
  MPI_Op o = mop(op);
  if (t == MPI_DATATYPE_NULL || o == MPI_OP_NULL) return -1;
  MPI_Comm cc = C(c);
  MPI_Errhandler old;
  MPI_Request r = MPI_REQUEST_NULL;
  MPI_Comm_get_errhandler(cc, &old);
  MPI_Comm_set_errhandler(cc, MPI_ERRORS_RETURN);
  int rc = MPI_Iallreduce(MPI_IN_PLACE, buf, count, t, o, cc, &r);
  MPI_Comm_set_errhandler(cc, old);
  *req = MPI_Request_c2f(r);
  return rc;
}
/* inout[k] += in[k] for `count` elements of xmpc type `type` (MPI_Reduce_local).
 * Returns 0, or -1 for a type without `+`. */
int xs_reduce_local_sum(const void *in, void *inout, int count, int type) {
  MPI_Datatype t = dtype(type);
  if (t == MPI_DATATYPE_NULL || type == 15) return -1;
  if (count > 0) MPI_Reduce_local(in, inout, count, t, MPI_SUM);
  return 0;
}
/* One exchange of bytes; dest/src < 0: no peer (MPI_PROC_NULL). */
void xs_sendrecv_bytes(const void *s, int sbytes, int dest, void *r, int rbytes, int src, int tag, F c) {
  MPI_Sendrecv(s, sbytes, MPI_BYTE, dest < 0 ? MPI_PROC_NULL : dest, tag, r, rbytes, MPI_BYTE, src < 0 ? MPI_PROC_NULL : src, tag, C(c),
               MPI_STATUS_IGNORE);
}
/* Ask for transparent huge pages: a strided (column) halo touches one element per
 * row, so with 4 KiB pages every element is a TLB miss. */
void xs_hugepage(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
  if (!getenv("XMPC_NO_HUGEPAGE")) madvise(p, bytes, MADV_HUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}
double xs_ld_to_double(const void *p) { return (double)*(const long double *)p; }

/* Subarray of a C-order local block of `elem` bytes per element. */
F xs_type_subarray(int ndims, const int *sizes, const int *subs, const int *starts, int elem) {
  /* The element as whole machine words: MPICH's datatype engine has fast
   * kernels for 8/4/2-byte integers but packs a run of MPI_BYTEs slowly. */
  MPI_Datatype e, t, w = MPI_BYTE;
  int k = 1;
  if (elem % 8 == 0) w = MPI_UINT64_T, k = 8;
  else if (elem % 4 == 0) w = MPI_UINT32_T, k = 4;
  else if (elem % 2 == 0) w = MPI_UINT16_T, k = 2;
  MPI_Type_contiguous(elem / k, w, &e);
  MPI_Type_create_subarray(ndims, sizes, subs, starts, MPI_ORDER_C, e, &t);
  MPI_Type_commit(&t);
  MPI_Type_free(&e);
  return MPI_Type_c2f(t);
}
int xs_type_size(F t) { int s; MPI_Type_size(MPI_Type_f2c(t), &s); return s; }
/* Pack/unpack with the datatype engine (no element loops here). */
void xs_pack(const void *base, F t, void *buf, int bytes) {
  int pos = 0;
  MPI_Pack(base, 1, MPI_Type_f2c(t), buf, bytes, &pos, MPI_COMM_SELF);
}
void xs_unpack(const void *buf, int bytes, void *base, F t) {
  int pos = 0;
  MPI_Unpack(buf, bytes, &pos, base, 1, MPI_Type_f2c(t), MPI_COMM_SELF);
}
/* Raw bytes, also for MPI_Pack output: the nodes of a job share one data
 * representation, and MPICH moves MPI_BYTE faster than MPI_PACKED (measured:
 * column halo 13 -> 9 us). */
F xs_send_init_bytes(void *buf, int bytes, int dest, int tag, F c) {
  MPI_Request r;
  MPI_Send_init(buf, bytes, MPI_BYTE, dest, tag, C(c), &r);
  return MPI_Request_c2f(r);
}
F xs_recv_init_bytes(void *buf, int bytes, int src, int tag, F c) {
  MPI_Request r;
  MPI_Recv_init(buf, bytes, MPI_BYTE, src, tag, C(c), &r);
  return MPI_Request_c2f(r);
}
/* Persistent requests keep their handle across start/wait, so the Fint stays valid. */
#define NREQ 64
void xs_startall(int n, const F *reqs) {
  MPI_Request r[NREQ];
  for (int b = 0; b < n; b += NREQ) {
    int m = n - b < NREQ ? n - b : NREQ;
    for (int i = 0; i < m; i++) r[i] = MPI_Request_f2c(reqs[b + i]);
    MPI_Startall(m, r);
  }
}
void xs_waitall(int n, const F *reqs) {
  MPI_Request r[NREQ];
  MPI_Status st[NREQ]; /* not MPI_STATUSES_IGNORE: gcc's access attribute warns */
  for (int b = 0; b < n; b += NREQ) {
    int m = n - b < NREQ ? n - b : NREQ;
    for (int i = 0; i < m; i++) r[i] = MPI_Request_f2c(reqs[b + i]);
    MPI_Waitall(m, r, st);
  }
}
void xs_bcast_typed(void *buf, F type, int root, F c) { MPI_Bcast(buf, 1, MPI_Type_f2c(type), root, C(c)); }

/* xmp_malloc(d, n1, n2, ...): the sizes are ints (Omni's convention). */
void *xmpc_rt_malloc_dims(void *d, int n, const long *sizes);
int xmp_array_ndims(void *d, int *ndims);
void *xmp_malloc(void *d, ...) {
  int nd = 0;
  long sz[16];
  xmp_array_ndims(d, &nd);
  va_list ap;
  va_start(ap, d);
  for (int i = 0; i < nd && i < 16; i++) sz[i] = va_arg(ap, int);
  va_end(ap);
  return xmpc_rt_malloc_dims(d, nd, sz);
}

/* Shared-memory halos (shm.rs): the nodes of a set that share a node's memory,
 * and a window there holding each process's staging slots. */
F xs_comm_split_shared(F c) {
  MPI_Comm n;
  MPI_Comm_split_type(C(c), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &n);
  return MPI_Comm_c2f(n);
}
/* Collective over `c` (the processes of one node): how many CPUs the processes
 * may run on together (the union of their affinity masks). Under `mpiexec
 * -bind-to core` each process's own mask holds one CPU, yet the team has one
 * core per process. 0 when the masks cannot be read. */
int xs_team_cpus(F c) {
  cpu_set_t set;
  CPU_ZERO(&set);
  int ok = sched_getaffinity(0, sizeof set, &set) == 0, all_ok;
  unsigned char *b = (unsigned char *)&set;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, C(c));
  MPI_Allreduce(MPI_IN_PLACE, b, (int)sizeof set, MPI_UNSIGNED_CHAR, MPI_BOR, C(c));
  return all_ok ? CPU_COUNT(&set) : 0;
}
/* Collective over `c` (the processes of one node): 1 when each process is bound to
 * one CPU of its own (`mpiexec -bind-to core`: every own mask holds one CPU, and
 * the masks together hold as many CPUs as there are processes), else 0. A waiter
 * of such a team never helps its peer by yielding: the peer runs on another CPU. */
int xs_pinned_team(F c) {
  cpu_set_t set;
  CPU_ZERO(&set);
  int one = sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) == 1, all_one, n;
  unsigned char *b = (unsigned char *)&set;
  MPI_Allreduce(&one, &all_one, 1, MPI_INT, MPI_LAND, C(c));
  MPI_Allreduce(MPI_IN_PLACE, b, (int)sizeof set, MPI_UNSIGNED_CHAR, MPI_BOR, C(c));
  MPI_Comm_size(C(c), &n);
  return all_one && CPU_COUNT(&set) == n;
}
/* out[i] = rank in `to` of rank ranks[i] of `from`, -1 if not there. */
void xs_translate_ranks(F from, int n, const int *ranks, F to, int *out) {
  MPI_Group a, b;
  MPI_Comm_group(C(from), &a);
  MPI_Comm_group(C(to), &b);
  MPI_Group_translate_ranks(a, n, ranks, b, out);
  for (int i = 0; i < n; i++)
    if (out[i] == MPI_UNDEFINED) out[i] = -1;
  MPI_Group_free(&a);
  MPI_Group_free(&b);
}
/* Each process's part page-aligned on its own (alloc_shared_noncontig), and one
 * passive epoch for the window's life: loads and stores then need no further
 * MPI synchronisation beyond MPI_Win_sync (unified memory model). */
F xs_win_shared(F c, long bytes, void **base) {
  MPI_Info info;
  MPI_Win w;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  MPI_Win_allocate_shared((MPI_Aint)bytes, 1, info, C(c), base, &w);
  MPI_Info_free(&info);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, w);
  return MPI_Win_c2f(w);
}
void *xs_win_query(F w, int rank) {
  MPI_Aint size;
  int unit;
  void *p = NULL;
  MPI_Win_shared_query(MPI_Win_f2c(w), rank, &size, &unit, &p);
  return p;
}
void xs_win_sync(F w) { MPI_Win_sync(MPI_Win_f2c(w)); }
/* Collective over the window's communicator: ends the epoch of xs_win_shared. */
void xs_win_free(F w) {
  MPI_Win x = MPI_Win_f2c(w);
  MPI_Win_unlock_all(x);
  MPI_Win_free(&x);
}

/* Library routines with variable arguments or MPI types (include/xmp.h). */
void xmpc_rt_gather(void *x, void *a, int n, void *const *idx, const long *base);
void xmpc_rt_scatter(void *x, void *a, int n, void *const *idx, const long *base);
void xmpc_rt_start(void);
F xmpc_rt_exec_comm(void);
void xmpc_fatal(const void *loc, const char *what);

/* xmp_gather(x, a, idx_1, ..., idx_n): n = rank of a. */
void xmp_gather(void *x, void *a, ...) {
  int nd = 0;
  void *idx[16];
  xmp_array_ndims(a, &nd);
  va_list ap;
  va_start(ap, a);
  for (int i = 0; i < nd && i < 16; i++) idx[i] = va_arg(ap, void *);
  va_end(ap);
  xmpc_rt_gather(x, a, nd, idx, NULL);
}
/* xmp_scatter(x, a, idx_1, ..., idx_n): n = rank of x. */
void xmp_scatter(void *x, void *a, ...) {
  int nd = 0;
  void *idx[16];
  xmp_array_ndims(x, &nd);
  va_list ap;
  va_start(ap, a);
  for (int i = 0; i < nd && i < 16; i++) idx[i] = va_arg(ap, void *);
  va_end(ap);
  xmpc_rt_scatter(x, a, nd, idx, NULL);
}
MPI_Comm xmp_get_mpi_comm(void) { return MPI_Comm_f2c(xmpc_rt_exec_comm()); }
/* An MPI main calling XMP code: MPI is up; only MPI_COMM_WORLD is supported as the
 * XMP world. */
void xmp_init(MPI_Comm comm) {
  int r = MPI_UNEQUAL;
  MPI_Comm_compare(comm, MPI_COMM_WORLD, &r);
  if (r != MPI_IDENT && r != MPI_CONGRUENT)
    xmpc_fatal(NULL, "xmp_init: only MPI_COMM_WORLD (or a congruent communicator) can be the XMP world");
  xmpc_rt_start();
}
/* Fortran `call xmp_init(comm)`. */
void xmp_init_(const MPI_Fint *comm) { xmp_init(MPI_Comm_f2c(*comm)); }
void xmp_init_mpi(int *argc, char ***argv) {
  xs_init(argc, argv);
  xmpc_rt_start();
}
