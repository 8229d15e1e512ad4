/* xmpc's libcaf: coindexed reads and writes (caf_lib.c says how it is linked).
 *
 * A coarray section is a gfortran descriptor whose strides count elements from
 * `offset` bytes into the token's memory (as libcaf_single reads them). Both sides
 * contiguous with the same representation: one MPI_Put / MPI_Get on the user's memory.
 * Otherwise the elements go through a packed buffer, in array element order: a strided
 * remote side is one MPI datatype (nested hvectors), a strided local side is packed or
 * unpacked element by element, and a kind or character-length change is done there. */
#include <complex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "caf_lib.h"

#define CAF(name) __wrap__gfortran_caf_##name
#define MAXR 15

typedef struct {
  int rank, type;
  size_t n, elem;
  ptrdiff_t ext[MAXR], bstr[MAXR]; /* extents, byte strides */
  int contig;
} shape_t;

static void shape_of(const gfc_desc_t *d, shape_t *s) {
  s->rank = d->dtype.rank;
  s->type = d->dtype.type;
  s->elem = d->dtype.elem_len;
  s->n = 1;
  s->contig = 1;
  if (s->rank < 0 || s->rank > MAXR) caf_fail("a descriptor of rank %d", s->rank);
  ptrdiff_t want = 1;
  for (int j = 0; j < s->rank; j++) {
    ptrdiff_t e = d->dim[j].upper_bound - d->dim[j].lower_bound + 1;
    if (e < 0) e = 0;
    s->ext[j] = e;
    s->bstr[j] = d->dim[j].stride * (ptrdiff_t)s->elem;
    if (e > 1 && d->dim[j].stride != want) s->contig = 0;
    want *= e;
    s->n *= (size_t)e;
  }
}

/* The local address of a descriptor's first element: gfortran's element (i_1..i_n) is
 * at base_addr + (offset + sum i_j * stride_j) * span; a coindexed section's descriptor
 * may keep base_addr at the array's origin (its bounds being the section's indices). */
static const void *first_elem(const gfc_desc_t *d) {
  if (!d->base_addr || d->dtype.rank <= 0) return d->base_addr;
  ptrdiff_t k = (ptrdiff_t)d->offset;
  for (int j = 0; j < d->dtype.rank; j++) k += d->dim[j].lower_bound * d->dim[j].stride;
  ptrdiff_t span = d->span ? d->span : (ptrdiff_t)d->dtype.elem_len;
  return (const char *)d->base_addr + k * span;
}

/* calls fn(byte offset of element k, k) for the elements in array element order */
#define FOR_ELEMS(s, off, k, body)                                  \
  do {                                                              \
    ptrdiff_t idx_[MAXR] = {0};                                     \
    ptrdiff_t off = 0;                                              \
    for (size_t k = 0; k < (s)->n; k++) {                           \
      body;                                                         \
      for (int j_ = 0; j_ < (s)->rank; j_++) {                      \
        off += (s)->bstr[j_];                                       \
        if (++idx_[j_] < (s)->ext[j_]) break;                       \
        off -= (s)->bstr[j_] * (s)->ext[j_];                        \
        idx_[j_] = 0;                                               \
      }                                                             \
    }                                                               \
  } while (0)

static MPI_Datatype remote_type(const shape_t *s) {
  MPI_Datatype t, u;
  MPI_Type_contiguous((int)s->elem, MPI_BYTE, &t);
  for (int j = 0; j < s->rank; j++) {
    MPI_Type_create_hvector((int)s->ext[j], 1, (MPI_Aint)s->bstr[j], t, &u);
    MPI_Type_free(&t);
    t = u;
  }
  MPI_Type_commit(&t);
  return t;
}

/* ---------------------------------------------------------------- conversion */

static int real_size_ok(int kind) { return kind == 4 || kind == 8 || kind == 10; }

static long double get_real(const void *p, int kind) {
  switch (kind) {
  case 4: return *(const float *)p;
  case 8: return *(const double *)p;
  default: return *(const long double *)p;
  }
}
static void put_real(void *p, int kind, long double v) {
  switch (kind) {
  case 4: *(float *)p = (float)v; break;
  case 8: *(double *)p = (double)v; break;
  default: *(long double *)p = v;
  }
}
static __int128 get_int(const void *p, int kind) {
  switch (kind) {
  case 1: return *(const int8_t *)p;
  case 2: return *(const int16_t *)p;
  case 4: return *(const int32_t *)p;
  case 8: return *(const int64_t *)p;
  default: return *(const __int128 *)p;
  }
}
static void put_int(void *p, int kind, __int128 v) {
  switch (kind) {
  case 1: *(int8_t *)p = (int8_t)v; break;
  case 2: *(int16_t *)p = (int16_t)v; break;
  case 4: *(int32_t *)p = (int32_t)v; break;
  case 8: *(int64_t *)p = (int64_t)v; break;
  default: *(__int128 *)p = v;
  }
}

typedef struct {
  int dt, st, dk, sk;
  size_t dsz, ssz;
  int same; /* same representation: a byte copy */
} conv_t;

static void conv_setup(conv_t *c, int dt, size_t dsz, int dk, int st, size_t ssz, int sk) {
  c->dt = dt, c->st = st, c->dk = dk, c->sk = sk, c->dsz = dsz, c->ssz = ssz;
  c->same = dt == st && dsz == ssz;
  if (c->same) return;
  if (dt == BT_CHARACTER && st == BT_CHARACTER) {
    if (dk != sk) caf_fail("a coindexed assignment between character kinds %d and %d is not supported", sk, dk);
    return;
  }
  int num_d = dt == BT_INTEGER || dt == BT_REAL || dt == BT_COMPLEX || dt == BT_LOGICAL;
  int num_s = st == BT_INTEGER || st == BT_REAL || st == BT_COMPLEX || st == BT_LOGICAL;
  if (!num_d || !num_s || (dt == BT_LOGICAL) != (st == BT_LOGICAL))
    caf_fail("a coindexed assignment converting type %d (%zu bytes) to type %d (%zu bytes) is not supported", st, ssz, dt, dsz);
  if ((dt == BT_REAL && !real_size_ok(dk)) || (st == BT_REAL && !real_size_ok(sk)) || (dt == BT_COMPLEX && !real_size_ok(dk)) ||
      (st == BT_COMPLEX && !real_size_ok(sk)))
    caf_fail("a coindexed assignment with real kind %d is not supported", dt == BT_REAL || dt == BT_COMPLEX ? dk : sk);
}

static void conv_one(const conv_t *c, void *d, const void *s) {
  if (c->same) {
    memcpy(d, s, c->dsz);
    return;
  }
  if (c->dt == BT_CHARACTER) {
    size_t n = c->dsz < c->ssz ? c->dsz : c->ssz;
    memcpy(d, s, n);
    if (c->dk == 1) memset((char *)d + n, ' ', c->dsz - n);
    else
      for (size_t i = n / 4; i < c->dsz / 4; i++) ((int32_t *)d)[i] = ' ';
    return;
  }
  __int128 iv = 0;
  long double rv = 0, iv_im = 0;
  switch (c->st) {
  case BT_LOGICAL:
  case BT_INTEGER: iv = get_int(s, c->sk); rv = (long double)iv; break;
  case BT_REAL: rv = get_real(s, c->sk); iv = (__int128)rv; break;
  case BT_COMPLEX:
    rv = get_real(s, c->sk);
    iv_im = get_real((const char *)s + c->ssz / 2, c->sk);
    iv = (__int128)rv;
    break;
  }
  switch (c->dt) {
  case BT_LOGICAL: put_int(d, c->dk, iv != 0); break;
  case BT_INTEGER: put_int(d, c->dk, iv); break;
  case BT_REAL: put_real(d, c->dk, rv); break;
  case BT_COMPLEX:
    put_real(d, c->dk, rv);
    put_real((char *)d + c->dsz / 2, c->dk, iv_im);
    break;
  }
}

/* ---------------------------------------------------------------- remote side */

static void remote_read(tok_t *t, size_t offset, int r, const shape_t *s, char *buf) {
  if (!s->n) return;
  if (r == caf_tok_me(t)) {
    const char *b = t->base + offset;
    FOR_ELEMS(s, off, k, memcpy(buf + k * s->elem, b + off, s->elem));
    return;
  }
  caf_order(t, r); /* this image's earlier puts come first */
  size_t bytes = s->n * s->elem;
  if (s->contig) {
    MPI_Get(buf, (int)bytes, MPI_BYTE, r, (MPI_Aint)offset, (int)bytes, MPI_BYTE, t->win);
  } else {
    MPI_Datatype dt = remote_type(s);
    MPI_Get(buf, (int)bytes, MPI_BYTE, r, (MPI_Aint)offset, 1, dt, t->win);
    MPI_Type_free(&dt);
  }
  MPI_Win_flush(r, t->win);
}

/* buf may be reused when it returns; the target completes at the next sync */
static void remote_write(tok_t *t, size_t offset, int r, const shape_t *s, const char *buf) {
  if (!s->n) return;
  if (r == caf_tok_me(t)) {
    char *b = t->base + offset;
    FOR_ELEMS(s, off, k, memcpy(b + off, buf + k * s->elem, s->elem));
    return;
  }
  size_t bytes = s->n * s->elem;
  caf_order(t, r);
  if (s->contig) {
    MPI_Put(buf, (int)bytes, MPI_BYTE, r, (MPI_Aint)offset, (int)bytes, MPI_BYTE, t->win);
  } else {
    MPI_Datatype dt = remote_type(s);
    MPI_Put(buf, (int)bytes, MPI_BYTE, r, (MPI_Aint)offset, 1, dt, t->win);
    MPI_Type_free(&dt);
  }
  MPI_Win_flush_local(r, t->win);
  caf_mark_dirty(t);
}

static char *scratch(size_t bytes, char *small, size_t small_len) {
  if (bytes <= small_len) return small;
  char *p = malloc(bytes ? bytes : 1);
  if (!p) caf_fail("out of memory for a %zu-byte transfer buffer", bytes);
  return p;
}

/* ---------------------------------------------------------------- entry points */

void CAF(send)(void *token, size_t offset, int image, gfc_desc_t *dest, void *dst_vector, gfc_desc_t *src, int dst_kind,
               int src_kind, bool may_require_tmp, int *stat) {
  (void)may_require_tmp;
  if (dst_vector) caf_fail("a vector subscript on a coindexed object is not supported (build with XMPC_CAF=opencoarrays)");
  shape_t ds, ss;
  shape_of(dest, &ds);
  shape_of(src, &ss);
  if (ss.rank > 0 && ss.n != ds.n) caf_fail("coindexed assignment: %zu elements into %zu", ss.n, ds.n);
  if (!ds.n) {
    if (stat) *stat = 0;
    return;
  }
  tok_t *t = caf_resolve(token, &offset, first_elem(dest));
  int r = caf_tok_rank(t, image); /* the coarray's own numbering (`coarray on`), else the executing images */
  conv_t c;
  conv_setup(&c, ds.type, ds.elem, dst_kind, ss.type, ss.elem, src_kind);
  if (c.same && ds.contig && ss.contig && (ss.rank > 0 || ds.n == 1) && r != caf_tok_me(t) && ds.n) {
    remote_write(t, offset, r, &ds, src->base_addr); /* straight from the source, as get reads into dest */
  } else {
    char small[256];
    char *buf = scratch(ds.n * ds.elem, small, sizeof small);
    const char *sb = src->base_addr;
    if (ss.rank == 0) {
      for (size_t k = 0; k < ds.n; k++) conv_one(&c, buf + k * ds.elem, sb);
    } else {
      FOR_ELEMS(&ss, off, k, conv_one(&c, buf + k * ds.elem, sb + off));
    }
    remote_write(t, offset, r, &ds, buf);
    if (buf != small) free(buf);
  }
  if (stat) *stat = 0;
}

void CAF(get)(void *token, size_t offset, int image, gfc_desc_t *src, void *src_vector, gfc_desc_t *dest, int src_kind,
              int dst_kind, bool may_require_tmp, int *stat) {
  (void)may_require_tmp;
  if (src_vector) caf_fail("a vector subscript on a coindexed object is not supported (build with XMPC_CAF=opencoarrays)");
  shape_t ds, ss;
  shape_of(dest, &ds);
  shape_of(src, &ss);
  if (ss.rank > 0 && ss.n != ds.n) caf_fail("coindexed read: %zu elements into %zu", ss.n, ds.n);
  if (!ss.n) {
    if (stat) *stat = 0;
    return;
  }
  tok_t *t = caf_resolve(token, &offset, first_elem(src));
  int r = caf_tok_rank(t, image); /* the coarray's own numbering (`coarray on`), else the executing images */
  conv_t c;
  conv_setup(&c, ds.type, ds.elem, dst_kind, ss.type, ss.elem, src_kind);
  if (c.same && ds.contig && ss.contig && ss.n == ds.n && r != caf_tok_me(t)) {
    if (ds.n) remote_read(t, offset, r, &ss, dest->base_addr);
  } else {
    char small[256];
    char *buf = scratch(ss.n * ss.elem, small, sizeof small);
    remote_read(t, offset, r, &ss, buf);
    char *db = dest->base_addr;
    if (ds.rank == 0) conv_one(&c, db, buf);
    else FOR_ELEMS(&ds, off, k, conv_one(&c, db + off, buf + (ss.rank ? k : 0) * ss.elem));
    if (buf != small) free(buf);
  }
  if (stat) *stat = 0;
}

void CAF(sendget)(void *dst_token, size_t dst_offset, int dst_image, gfc_desc_t *dest, void *dst_vector, void *src_token,
                  size_t src_offset, int src_image, gfc_desc_t *src, void *src_vector, int dst_kind, int src_kind,
                  bool may_require_tmp) {
  (void)may_require_tmp;
  if (dst_vector || src_vector)
    caf_fail("a vector subscript on a coindexed object is not supported (build with XMPC_CAF=opencoarrays)");
  shape_t ds, ss;
  shape_of(dest, &ds);
  shape_of(src, &ss);
  if (ss.rank > 0 && ss.n != ds.n) caf_fail("coindexed assignment: %zu elements into %zu", ss.n, ds.n);
  conv_t c;
  conv_setup(&c, ds.type, ds.elem, dst_kind, ss.type, ss.elem, src_kind);
  if (!ds.n) return;
  tok_t *st = caf_resolve(src_token, &src_offset, first_elem(src)), *dt = caf_resolve(dst_token, &dst_offset, first_elem(dest));
  int dr = caf_tok_rank(dt, dst_image), sr = caf_tok_rank(st, src_image);
  char *in = malloc(ss.n * ss.elem + 1), *out = malloc(ds.n * ds.elem + 1);
  if (!in || !out) caf_fail("out of memory for a coindexed copy");
  remote_read(st, src_offset, sr, &ss, in);
  for (size_t k = 0; k < ds.n; k++) conv_one(&c, out + k * ds.elem, in + (ss.rank ? k : 0) * ss.elem);
  remote_write(dt, dst_offset, dr, &ds, out);
  free(in);
  free(out);
}
