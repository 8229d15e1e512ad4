/* Internal declarations of xmpc's libcaf (caf_lib.c, caf_xfer.c, caf_coll.c). */
#ifndef XMPC_CAF_LIB_H
#define XMPC_CAF_LIB_H
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* gfortran 12's array descriptor (libgfortran.h: gfc_array_void) */
typedef struct {
  size_t elem_len;
  int version;
  signed char rank, type;
  signed short attribute;
} gfc_dtype_t;
typedef struct {
  ptrdiff_t stride, lower_bound, upper_bound;
} gfc_dim_t;
typedef struct {
  void *base_addr;
  size_t offset;
  gfc_dtype_t dtype;
  ptrdiff_t span;
  gfc_dim_t dim[];
} gfc_desc_t;

/* gfortran's BT_* type codes */
enum { BT_UNKNOWN, BT_INTEGER, BT_LOGICAL, BT_REAL, BT_COMPLEX, BT_DERIVED, BT_CHARACTER, BT_CLASS };

/* one registered coarray: its window and this image's memory */
typedef struct tok {
  MPI_Win win;
  char *base;
  size_t size;
  int dirty; /* written by a put since the last flush */
  int reusable; /* an allocatable coarray's own window: kept for reuse when deallocated */
  struct tok *next, *prev;
  /* Omni's `coarray on p :: a` (xmpf_coarray_on): the world ranks of p's nodes by
   * linear index, which number this coarray's images; NULL: the executing images */
  const int *on_world;
  int on_n, on_me; /* p's size, this process's index in p (-1: not a node of p) */
  /* allocated inside a `task`: the window is over the task's communicator and its
   * images are the task's nodes (on_world: a copy of their world ranks, owned); a
   * window rank is then an image - 1, not a world rank */
  int win_local;
} tok_t;

void caf_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* the runtime's abort after an error message (runtime/lib/xmp/src/err.rs): waits until the
 * launcher can have forwarded stderr, then MPI_Abort with code (exit when MPI is down) */
void xmpc_rt_abort(int code) __attribute__((noreturn));
int caf_rank(int image);
/* world rank of image `image` of coarray t: numbered by its `coarray on` node set if it
 * has one, else by the executing images (caf_rank) */
int caf_tok_rank(const tok_t *t, int image);
/* this process's rank in coarray t's window */
int caf_tok_me(const tok_t *t);
int caf_my_rank(void);
int caf_images(void);
MPI_Comm caf_coll_comm(int image, int *root, const char *what);
tok_t *caf_resolve(void *token, size_t *offset, const void *local);
void caf_mark_dirty(tok_t *t);
void caf_flush_dirty(void);
/* MPI orders nothing between two RMA calls to one target without a flush: before an
 * access to target r of a window written since the last flush, complete those writes */
static inline void caf_order(tok_t *t, int r) {
  if (t->dirty) MPI_Win_flush(r, t->win);
}
#endif
