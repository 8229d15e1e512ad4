/* Option (b) of docs/local-view.md, measured: the smallest implementation of
 * gfortran's coarray ABI (`_gfortran_caf_*`, GCC manual "GNU Fortran Compiler
 * Runtime Library Interface / Coarray Programming") over MPI-3 windows, enough
 * for caf_bench.f90 only: registration (one MPI_Win_create per coarray, locked
 * once for all targets), send/get of CONTIGUOUS data (MPI_Put/MPI_Get + flush),
 * sync all (flush + barrier + win_sync), co_sum of real(8)/integer(4). Anything
 * else aborts. It is a benchmark prototype, not a product: fortran.sh links
 * caf_bench against it (XMPC_CAF_LIBS) beside OpenCoarrays to compare the two. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

typedef struct {
  size_t elem_len;
  int version;
  signed char rank, type;
  signed short attribute;
} dtype_t;
typedef struct {
  ptrdiff_t stride, lower_bound, upper_bound;
} dim_t;
typedef struct {
  void *base_addr;
  size_t offset;
  dtype_t dtype;
  ptrdiff_t span;
  dim_t dim[];
} desc_t;

typedef struct tok {
  MPI_Win win;
  void *base;
  struct tok *next;
} tok_t;
static tok_t *toks;
static int me, np, inited;

static void die(const char *what) {
  fprintf(stderr, "caf_proto: %s not supported\n", what);
  MPI_Abort(MPI_COMM_WORLD, 9);
}

void _gfortran_caf_init(int *argc, char ***argv) {
  if (inited++) return;
  int flag;
  MPI_Initialized(&flag);
  if (!flag) MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
}
void _gfortran_caf_finalize(void) {
  MPI_Barrier(MPI_COMM_WORLD);
  for (tok_t *t = toks; t; t = t->next) {
    MPI_Win_unlock_all(t->win);
    MPI_Win_free(&t->win);
  }
  MPI_Finalize();
}
int _gfortran_caf_this_image(int d) { (void)d; return me + 1; }
int _gfortran_caf_num_images(int d, int f) { (void)d; (void)f; return np; }

static size_t bytes_of(const desc_t *d) {
  size_t n = d->dtype.elem_len;
  ptrdiff_t want = 1;
  for (int r = 0; r < d->dtype.rank; r++) {
    ptrdiff_t ext = d->dim[r].upper_bound - d->dim[r].lower_bound + 1;
    if (d->dim[r].stride != want) die("a non-contiguous section");
    n *= (size_t)(ext > 0 ? ext : 0);
    want *= ext;
  }
  return n;
}

void _gfortran_caf_register(size_t size, int type, void **token, desc_t *desc, int *stat, char *e, size_t el) {
  (void)e; (void)el;
  if (type != 0 && type != 1) die("this registration type");
  if (!inited) _gfortran_caf_init(NULL, NULL);
  tok_t *t = calloc(1, sizeof *t);
  MPI_Alloc_mem((MPI_Aint)(size ? size : 1), MPI_INFO_NULL, &t->base);
  MPI_Win_create(t->base, (MPI_Aint)size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &t->win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, t->win);
  t->next = toks;
  toks = t;
  *token = t;
  desc->base_addr = t->base;
  if (stat) *stat = 0;
}
void _gfortran_caf_deregister(void **token, int type, int *stat, char *e, size_t el) {
  (void)type; (void)e; (void)el;
  tok_t *t = *token;
  for (tok_t **p = &toks; *p; p = &(*p)->next)
    if (*p == t) { *p = t->next; break; }
  MPI_Win_unlock_all(t->win);
  MPI_Win_free(&t->win);
  MPI_Free_mem(t->base);
  free(t);
  if (stat) *stat = 0;
}

void _gfortran_caf_send(void *token, size_t offset, int image, desc_t *dest, void *dv, desc_t *src, int dk, int sk,
                        bool tmp, int *stat) {
  (void)dk; (void)sk; (void)tmp;
  if (dv) die("a vector subscript");
  tok_t *t = token;
  size_t n = bytes_of(dest);
  if (bytes_of(src) != n && src->dtype.rank != 0) die("a conversion");
  if (image - 1 == me) {
    memcpy((char *)t->base + offset, src->base_addr, n);
  } else {
    MPI_Put(src->base_addr, (int)n, MPI_BYTE, image - 1, (MPI_Aint)offset, (int)n, MPI_BYTE, t->win);
    MPI_Win_flush(image - 1, t->win);
  }
  if (stat) *stat = 0;
}
void _gfortran_caf_get(void *token, size_t offset, int image, desc_t *src, void *sv, desc_t *dest, int sk, int dk,
                       bool tmp, int *stat) {
  (void)dk; (void)sk; (void)tmp;
  if (sv) die("a vector subscript");
  tok_t *t = token;
  size_t n = bytes_of(src);
  if (image - 1 == me) {
    memcpy(dest->base_addr, (char *)t->base + offset, n);
  } else {
    MPI_Get(dest->base_addr, (int)n, MPI_BYTE, image - 1, (MPI_Aint)offset, (int)n, MPI_BYTE, t->win);
    MPI_Win_flush(image - 1, t->win);
  }
  if (stat) *stat = 0;
}
void _gfortran_caf_sync_all(int *stat, char *e, size_t el) {
  (void)e; (void)el;
  for (tok_t *t = toks; t; t = t->next) MPI_Win_flush_all(t->win);
  MPI_Barrier(MPI_COMM_WORLD);
  for (tok_t *t = toks; t; t = t->next) MPI_Win_sync(t->win);
  if (stat) *stat = 0;
}
void _gfortran_caf_sync_memory(int *stat, char *e, size_t el) {
  (void)e; (void)el;
  for (tok_t *t = toks; t; t = t->next) MPI_Win_sync(t->win);
  if (stat) *stat = 0;
}
void _gfortran_caf_co_sum(desc_t *a, int result_image, int *stat, char *e, size_t el) {
  (void)e; (void)el;
  MPI_Datatype ty;
  if (a->dtype.type == 3 && a->dtype.elem_len == 8) ty = MPI_DOUBLE;      /* BT_REAL */
  else if (a->dtype.type == 1 && a->dtype.elem_len == 4) ty = MPI_INT;    /* BT_INTEGER */
  else die("this co_sum type");
  size_t n = bytes_of(a) / a->dtype.elem_len;
  if (result_image > 0)
    MPI_Reduce(me == result_image - 1 ? MPI_IN_PLACE : a->base_addr, a->base_addr, (int)n, ty, MPI_SUM,
               result_image - 1, MPI_COMM_WORLD);
  else
    MPI_Allreduce(MPI_IN_PLACE, a->base_addr, (int)n, ty, MPI_SUM, MPI_COMM_WORLD);
  if (stat) *stat = 0;
}
void _gfortran_caf_error_stop(int code, bool quiet) { (void)quiet; MPI_Abort(MPI_COMM_WORLD, code); }
/* the xmpc link wraps these (runtime/xmp/csrc/caf_f.c) */
void __real__gfortran_caf_register(size_t, int, void **, desc_t *, int *, char *, size_t)
    __attribute__((alias("_gfortran_caf_register")));
void __real__gfortran_caf_deregister(void **, int, int *, char *, size_t) __attribute__((alias("_gfortran_caf_deregister")));
void __real__gfortran_caf_sync_memory(int *, char *, size_t) __attribute__((alias("_gfortran_caf_sync_memory")));
