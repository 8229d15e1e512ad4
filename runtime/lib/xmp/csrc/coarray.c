/* XcalableMP local view in C over MPI-3 one-sided communication (include/xmpc_coarray.h).
 *
 * - Every coarray is one window (MPI_Win_create over its static storage, over a dup of
 *   MPI_COMM_WORLD), opened once with MPI_Win_lock_all (passive target) and kept open.
 * - A put/get is completed at the target before it returns (MPI_Win_flush): a later
 *   xmp_sync_all / sync_images / sync_memory then only orders memory.
 * - Strided sections: the target side is an MPI datatype (nested hvectors); the origin
 *   side is used in place when contiguous, else packed into a buffer.
 * - Images are 0-based among the executing nodes (xmp_get_mpi_comm()), translated to
 *   world ranks, so coarrays work inside `task`.
 * - post/wait: zero-byte messages on a private communicator; sync_images: a zero-byte
 *   exchange with each image on another one.
 * - lock/unlock: compare-and-swap on the xmp_lock_t coarray element (owner rank + 1).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../include/xmpc_coarray.h"

MPI_Comm xmp_get_mpi_comm(void);

typedef struct {
  char *base;
  size_t size;
  MPI_Win win;
} co_t;

static co_t *cos;
static int nco, capco, last_hit;
static MPI_Comm world = MPI_COMM_NULL, pw_comm, si_comm;
static int me = -1, nprocs;
static MPI_Comm cached_comm = MPI_COMM_NULL;
static int *cached_map, cached_n;

/* runtime/lib/xmp/src/err.rs: MPI_Abort once the launcher can have forwarded stderr */
void xmpc_rt_abort(int code) __attribute__((noreturn));
static void co_fatal(const char *file, int line, const char *fmt, ...) __attribute__((noreturn, format(printf, 3, 4)));
#include <stdarg.h>
static void co_fatal(const char *file, int line, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  int r = 0, up = 0;
  MPI_Initialized(&up);
  if (up) MPI_Comm_rank(MPI_COMM_WORLD, &r);
  fprintf(stderr, "[rank %d] xmpc runtime error: %s:%d: %s\n", r, file ? file : "?", line, msg);
  fflush(stderr);
  xmpc_rt_abort(1);
}

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first: the windows are closed and
 * freed there (MPICH over UCX aborts in MPI_Finalize on a window still open). */
static int co_teardown(MPI_Comm c, int key, void *val, void *extra) {
  (void)c; (void)key; (void)val; (void)extra;
  for (int i = 0; i < nco; i++) {
    MPI_Win_unlock_all(cos[i].win);
    MPI_Win_free(&cos[i].win);
  }
  nco = 0;
  MPI_Comm_free(&pw_comm);
  MPI_Comm_free(&si_comm);
  MPI_Comm_free(&world);
  world = MPI_COMM_NULL;
  cached_comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

static void co_setup(void) {
  if (world != MPI_COMM_NULL) return;
  int up = 0;
  MPI_Initialized(&up);
  if (!up) co_fatal(NULL, 0, "coarray runtime used before MPI was initialised");
  MPI_Comm_dup(MPI_COMM_WORLD, &world);
  MPI_Comm_dup(MPI_COMM_WORLD, &pw_comm);
  MPI_Comm_dup(MPI_COMM_WORLD, &si_comm);
  MPI_Comm_rank(world, &me);
  MPI_Comm_size(world, &nprocs);
  int key;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, co_teardown, &key, NULL);
  MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
}

/* ------------------------------------------------------------------ images */


static MPI_Comm exec_comm(void) {
  co_setup();
  return xmp_get_mpi_comm();
}

/* World rank of 0-based image `img` of the executing nodes. */
static int to_world(const char *file, int line, int img) {
  MPI_Comm c = exec_comm();
  if (c != cached_comm) {
    int n;
    MPI_Comm_size(c, &n);
    MPI_Group g, wg;
    MPI_Comm_group(c, &g);
    MPI_Comm_group(world, &wg);
    int *in = malloc(sizeof(int) * n);
    free(cached_map);
    cached_map = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++) in[i] = i;
    MPI_Group_translate_ranks(g, n, in, wg, cached_map);
    free(in);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    cached_comm = c;
    cached_n = n;
  }
  if (img < 0 || img >= cached_n)
    co_fatal(file, line, "image %d is out of range (there are %d images, numbered from 0)", img, cached_n);
  return cached_map[img];
}

int xmpc_this_image(void) {
  int r;
  MPI_Comm_rank(exec_comm(), &r);
  return r;
}
int xmp_this_image(void) { return xmpc_this_image() + 1; }
int xmp_num_images(void) {
  int n;
  MPI_Comm_size(exec_comm(), &n);
  return n;
}

int xmpc_co_image(const char *file, int line, int n, const long *cosize, const long *cosub) {
  long img = 0, mul = 1;
  for (int d = 0; d < n; d++) {
    if (d < n - 1 && (cosub[d] < 0 || cosub[d] >= cosize[d]))
      co_fatal(file, line, "cosubscript %ld of codimension %d is outside 0..%ld", cosub[d], d + 1, cosize[d] - 1);
    img += cosub[d] * mul;
    if (d < n - 1) mul *= cosize[d];
  }
  return (int)img;
}

/* ------------------------------------------------------------------ registry */

void xmpc_co_register(void *base, size_t bytes) {
  co_setup();
  for (int i = 0; i < nco; i++)
    if (cos[i].base == base) return; /* the program's section, registered by another file */
  if (nco == capco) {
    capco = capco ? 2 * capco : 16;
    cos = realloc(cos, sizeof(co_t) * capco);
  }
  co_t *c = &cos[nco++];
  c->base = base;
  c->size = bytes;
  MPI_Win_create(base, (MPI_Aint)bytes, 1, MPI_INFO_NULL, world, &c->win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, c->win);
}

/* An allocated coarray: MPI_Win_allocate (MPI's memory, the fast path of the MPI
 * library), zeroed; collective over all processes with the same size everywhere. */
void *xmpc_co_alloc(size_t bytes) {
  co_setup();
  if (nco == capco) {
    capco = capco ? 2 * capco : 16;
    cos = realloc(cos, sizeof(co_t) * capco);
  }
  co_t *c = &cos[nco++];
  void *base = NULL;
  /* MPICH 4.0.2 (Debian 12) gives wrong remote memory through MPI_Win_allocate when a
   * process's size is not a multiple of 16 bytes (docs/local-view.md, Fortran
   * defects): rounded up to a multiple of 64. */
  size_t padded = bytes ? (bytes + 63) & ~(size_t)63 : 64;
  MPI_Win_allocate((MPI_Aint)padded, 1, MPI_INFO_NULL, world, &base, &c->win);
  c->base = base;
  c->size = bytes;
  memset(base, 0, bytes);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, c->win);
  MPI_Barrier(world); /* nobody writes into it before everyone zeroed it */
  return base;
}

/* Frees an allocated coarray (collective; completes what is pending on it). */
void xmpc_co_dealloc(void *base) {
  for (int i = 0; i < nco; i++)
    if (cos[i].base == base) {
      MPI_Win_flush_all(cos[i].win);
      MPI_Barrier(world);
      MPI_Win_unlock_all(cos[i].win);
      MPI_Win_free(&cos[i].win);
      cos[i] = cos[--nco];
      last_hit = 0;
      return;
    }
  co_fatal(NULL, 0, "xmpc_co_dealloc: not an allocated coarray");
}

static co_t *co_find(const char *file, int line, const void *p, size_t len) {
  const char *q = p;
  if (nco && last_hit < nco) {
    co_t *c = &cos[last_hit];
    if (q >= c->base && q + len <= c->base + c->size) return c;
  }
  for (int i = 0; i < nco; i++) {
    co_t *c = &cos[i];
    if (q >= c->base && q + len <= c->base + c->size) {
      last_hit = i;
      return c;
    }
  }
  co_fatal(file, line, "the coindexed object is not inside a registered coarray (declared `:[*]` in a file that was not translated by xmpc?)");
}

/* Completes the operations on target r at both ends. */
static void co_flush(int r, MPI_Win w) { MPI_Win_flush(r, w); }

/* ------------------------------------------------------------------ sections */

static long sec_count(const xmpc_co_sec *s) {
  long n = 1;
  for (int d = 0; d < s->nd; d++) n *= s->cnt[d];
  return n;
}

/* Byte extent [lo, hi) of a section relative to its first element. */
static size_t sec_span(const xmpc_co_sec *s) {
  long hi = 0;
  for (int d = 0; d < s->nd; d++)
    if (s->cnt[d] > 0) hi += (s->cnt[d] - 1) * s->str[d];
  return (size_t)hi + s->elem;
}

static int sec_contig(const xmpc_co_sec *s) {
  long want = (long)s->elem;
  for (int d = s->nd - 1; d >= 0; d--) {
    if (s->cnt[d] == 1) continue;
    if (s->str[d] != want) return 0;
    want *= s->cnt[d];
  }
  return 1;
}

/* Visits the elements of a section in row-major order. */
#define SEC_FOR(s, base, P, BODY)                                           \
  do {                                                                      \
    long _i[8] = {0};                                                       \
    long _n = sec_count(s);                                                 \
    for (long _k = 0; _k < _n; _k++) {                                      \
      char *P = (char *)(base);                                             \
      for (int _d = 0; _d < (s)->nd; _d++) P += _i[_d] * (s)->str[_d];      \
      BODY;                                                                 \
      for (int _d = (s)->nd - 1; _d >= 0; _d--) {                           \
        if (++_i[_d] < (s)->cnt[_d]) break;                                 \
        _i[_d] = 0;                                                         \
      }                                                                     \
    }                                                                       \
  } while (0)

static void pack(char *buf, const void *base, const xmpc_co_sec *s) {
  size_t e = s->elem;
  SEC_FOR(s, base, p, { memcpy(buf, p, e); buf += e; });
}
static void unpack(void *base, const xmpc_co_sec *s, const char *buf, int bcast) {
  size_t e = s->elem;
  SEC_FOR(s, base, p, { memcpy(p, buf, e); if (!bcast) buf += e; });
}

static MPI_Datatype sec_type(const xmpc_co_sec *s) {
  MPI_Datatype t, n;
  MPI_Type_contiguous((int)s->elem, MPI_BYTE, &t);
  for (int d = s->nd - 1; d >= 0; d--) {
    if (s->cnt[d] == 1) continue;
    MPI_Type_create_hvector((int)s->cnt[d], 1, (MPI_Aint)s->str[d], t, &n);
    MPI_Type_free(&t);
    t = n;
  }
  MPI_Type_commit(&t);
  return t;
}

static void check_shapes(const char *file, int line, const xmpc_co_sec *ds, const xmpc_co_sec *ss, long *nd, long *ns) {
  const xmpc_co_sec *both[2] = {ds, ss};
  for (int k = 0; k < 2; k++)
    for (int d = 0; d < both[k]->nd && d < 8; d++) {
      if (both[k]->cnt[d] < 0)
        co_fatal(file, line, "a section has a negative length (%ld)", both[k]->cnt[d]);
      if (both[k]->cnt[d] > 1 && both[k]->str[d] <= 0)
        co_fatal(file, line, "a section has a stride below 1");
    }
  *nd = sec_count(ds);
  *ns = sec_count(ss);
  if (ds->elem != ss->elem)
    co_fatal(file, line, "element sizes differ between the two sides (%zu and %zu bytes)", ds->elem, ss->elem);
  if (*ns != *nd && *ns != 1)
    co_fatal(file, line, "the two sides have %ld and %ld elements", *nd, *ns);
  if (ds->nd > 8 || ss->nd > 8) co_fatal(file, line, "more than 8 dimensions");
}

/* Local copy between sections (through a buffer: the two may overlap). */
static void local_copy(void *dst, const xmpc_co_sec *ds, const void *src, const xmpc_co_sec *ss, long ns, long ndst) {
  size_t bytes = (size_t)ns * ss->elem;
  char stackbuf[256];
  char *buf = bytes <= sizeof stackbuf ? stackbuf : malloc(bytes);
  pack(buf, src, ss);
  unpack(dst, ds, buf, ns == 1 && ndst != 1);
  if (buf != stackbuf) free(buf);
}

void xmpc_co_put(const char *file, int line, int image, void *dst, const xmpc_co_sec *ds, const void *src, const xmpc_co_sec *ss) {
  long nd, ns;
  check_shapes(file, line, ds, ss, &nd, &ns);
  if (nd == 0) return;
  int r = to_world(file, line, image);
  co_t *c = co_find(file, line, dst, sec_span(ds));
  MPI_Aint disp = (char *)dst - c->base;
  if (r == me) {
    local_copy(dst, ds, src, ss, ns, nd);
    return;
  }
  size_t bytes = (size_t)nd * ds->elem;
  int sc = sec_contig(ss) && ns == nd;
  char stackbuf[256];
  char *buf = (char *)src;
  if (!sc) {
    buf = bytes <= sizeof stackbuf ? stackbuf : malloc(bytes);
    if (ns == nd)
      pack(buf, src, ss);
    else
      for (long k = 0; k < nd; k++) memcpy(buf + k * ds->elem, src, ds->elem);
  }
  MPI_Datatype t = MPI_DATATYPE_NULL;
  if (sec_contig(ds)) {
    MPI_Put(buf, (int)bytes, MPI_BYTE, r, disp, (int)bytes, MPI_BYTE, c->win);
  } else {
    t = sec_type(ds);
    MPI_Put(buf, (int)bytes, MPI_BYTE, r, disp, 1, t, c->win);
  }
  co_flush(r, c->win);
  if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
  if (buf != src && buf != stackbuf) free(buf);
}

void xmpc_co_get(const char *file, int line, int image, void *dst, const xmpc_co_sec *ds, const void *src, const xmpc_co_sec *ss) {
  long nd, ns;
  check_shapes(file, line, ds, ss, &nd, &ns);
  if (nd == 0) return;
  int r = to_world(file, line, image);
  co_t *c = co_find(file, line, src, sec_span(ss));
  MPI_Aint disp = (char *)src - c->base;
  if (r == me) {
    local_copy(dst, ds, src, ss, ns, nd);
    return;
  }
  size_t bytes = (size_t)ns * ss->elem;
  int dc = sec_contig(ds) && ns == nd;
  char stackbuf[256];
  char *buf = dc ? (char *)dst : bytes <= sizeof stackbuf ? stackbuf : malloc(bytes);
  MPI_Datatype t = MPI_DATATYPE_NULL;
  if (sec_contig(ss)) {
    MPI_Get(buf, (int)bytes, MPI_BYTE, r, disp, (int)bytes, MPI_BYTE, c->win);
  } else {
    t = sec_type(ss);
    MPI_Get(buf, (int)bytes, MPI_BYTE, r, disp, 1, t, c->win);
  }
  co_flush(r, c->win);
  if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
  if (!dc) {
    unpack(dst, ds, buf, ns == 1 && nd != 1);
    if (buf != stackbuf) free(buf);
  }
}

/* ------------------------------------------------------------------ sync */

static void mem_fence(void) {
  for (int i = 0; i < nco; i++) {
    MPI_Win_flush_all(cos[i].win);
    MPI_Win_sync(cos[i].win);
  }
}

void xmp_sync_memory(int *status) {
  co_setup();
  mem_fence();
  if (status) *status = 0;
}

void xmp_sync_all(int *status) {
  co_setup();
  mem_fence();
  MPI_Barrier(exec_comm());
  for (int i = 0; i < nco; i++) MPI_Win_sync(cos[i].win);
  if (status) *status = 0;
}

static void sync_with(int n, const int *worlds) {
  mem_fence();
  MPI_Request *rq = malloc(sizeof(MPI_Request) * 2 * (n ? n : 1));
  char dummy_s = 0, *dummy_r = malloc(n ? n : 1);
  for (int i = 0; i < n; i++) {
    MPI_Irecv(&dummy_r[i], 1, MPI_CHAR, worlds[i], 77, si_comm, &rq[2 * i]);
    MPI_Isend(&dummy_s, 1, MPI_CHAR, worlds[i], 77, si_comm, &rq[2 * i + 1]);
  }
  MPI_Status *st = malloc(sizeof(MPI_Status) * 2 * (n ? n : 1));
  MPI_Waitall(2 * n, rq, st);
  free(st);
  free(rq);
  free(dummy_r);
  for (int i = 0; i < nco; i++) MPI_Win_sync(cos[i].win);
}

void xmp_sync_images(int num, int *image_set, int *status) {
  co_setup();
  int *w = malloc(sizeof(int) * (num > 0 ? num : 1));
  for (int i = 0; i < num; i++) w[i] = to_world("xmp_sync_images", 0, image_set[i]);
  sync_with(num, w);
  free(w);
  if (status) *status = 0;
}

void xmp_sync_image(int image, int *status) { xmp_sync_images(1, &image, status); }

void xmp_sync_images_all(int *status) {
  int n = xmp_num_images(), k = 0;
  int *img = malloc(sizeof(int) * n);
  int mine = xmpc_this_image();
  for (int i = 0; i < n; i++)
    if (i != mine) img[k++] = i;
  xmp_sync_images(k, img, status);
  free(img);
}

/* ------------------------------------------------------------------ lock/unlock */

void xmpc_co_lock(const char *file, int line, xmp_lock_t *l, int image) {
  int r = to_world(file, line, image);
  co_t *c = co_find(file, line, l, sizeof *l);
  MPI_Aint disp = (char *)l - c->base;
  long mine = me + 1, zero = 0, got = -1;
  for (unsigned spin = 0;; spin++) {
    MPI_Compare_and_swap(&mine, &zero, &got, MPI_LONG, r, disp, c->win);
    co_flush(r, c->win);
    if (got == 0) break;
    if (got == mine) co_fatal(file, line, "lock: this image already holds the lock");
    if (spin > 64) usleep(spin > 4096 ? 100 : 1);
  }
  mem_fence();
}

void xmpc_co_unlock(const char *file, int line, xmp_lock_t *l, int image) {
  int r = to_world(file, line, image);
  co_t *c = co_find(file, line, l, sizeof *l);
  MPI_Aint disp = (char *)l - c->base;
  long mine = me + 1, zero = 0, got = -1;
  mem_fence();
  MPI_Compare_and_swap(&zero, &mine, &got, MPI_LONG, r, disp, c->win);
  co_flush(r, c->win);
  if (got != mine) co_fatal(file, line, "unlock: the lock is not held by this image");
}

/* ------------------------------------------------------------------ post/wait */

void xmpc_co_post(const char *file, int line, int w, int tag) {
  co_setup();
  if (w < 0 || w >= nprocs) co_fatal(file, line, "post: node out of range");
  int ub = 32767, *pub, flag = 0;
  MPI_Comm_get_attr(pw_comm, MPI_TAG_UB, &pub, &flag);
  if (flag) ub = *pub;
  if (tag < 0 || tag > ub) co_fatal(file, line, "post: tag %d is outside 0..%d", tag, ub);
  mem_fence();
  MPI_Request rq;
  MPI_Isend(NULL, 0, MPI_BYTE, w, tag, pw_comm, &rq);
  MPI_Request_free(&rq);
}

void xmpc_co_wait(const char *file, int line, int w, int has_tag, int tag) {
  co_setup();
  if (w >= nprocs) co_fatal(file, line, "wait: node out of range");
  MPI_Recv(NULL, 0, MPI_BYTE, w < 0 ? MPI_ANY_SOURCE : w, has_tag ? tag : MPI_ANY_TAG, pw_comm, MPI_STATUS_IGNORE);
  for (int i = 0; i < nco; i++) MPI_Win_sync(cos[i].win);
}

/* ------------------------------------------------------------------ atomics */

void xmpc_co_atomic_define(const char *file, int line, int *a, int image, int v) {
  int r = image < 0 ? (co_setup(), me) : to_world(file, line, image);
  co_t *c = co_find(file, line, a, sizeof *a);
  MPI_Aint disp = (char *)a - c->base;
  int old;
  MPI_Fetch_and_op(&v, &old, MPI_INT, r, disp, MPI_REPLACE, c->win);
  co_flush(r, c->win);
  MPI_Win_sync(c->win); /* this image's loads see a define on itself */
}

void xmpc_co_atomic_ref(const char *file, int line, int *v, int *a, int image) {
  int r = image < 0 ? (co_setup(), me) : to_world(file, line, image);
  co_t *c = co_find(file, line, a, sizeof *a);
  MPI_Aint disp = (char *)a - c->base;
  int dummy = 0;
  MPI_Fetch_and_op(&dummy, v, MPI_INT, r, disp, MPI_NO_OP, c->win);
  co_flush(r, c->win);
}
