/* xmpc's libcaf: the collective subroutines co_sum, co_min, co_max, co_broadcast and
 * co_reduce, as MPI_Allreduce / MPI_Reduce / MPI_Bcast on the images' communicator
 * (caf_lib.c). A non-contiguous argument is packed into a buffer and back. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "caf_lib.h"

#define CAF(name) __wrap__gfortran_caf_##name

static size_t elems(const gfc_desc_t *d, int *contig) {
  size_t n = 1;
  ptrdiff_t want = 1;
  *contig = 1;
  for (int j = 0; j < d->dtype.rank; j++) {
    ptrdiff_t e = d->dim[j].upper_bound - d->dim[j].lower_bound + 1;
    if (e < 0) e = 0;
    if (e > 1 && d->dim[j].stride != want) *contig = 0;
    want *= e;
    n *= (size_t)e;
  }
  return n;
}

/* the argument's data as one contiguous buffer (copied when strided) */
static char *pack(const gfc_desc_t *d, size_t n, int contig) {
  if (contig) return d->base_addr;
  size_t el = d->dtype.elem_len;
  char *buf = malloc(n * el + 1);
  if (!buf) caf_fail("out of memory in a collective");
  ptrdiff_t idx[15] = {0}, off = 0;
  for (size_t k = 0; k < n; k++) {
    memcpy(buf + k * el, (char *)d->base_addr + off * (ptrdiff_t)el, el);
    for (int j = 0; j < d->dtype.rank; j++) {
      ptrdiff_t e = d->dim[j].upper_bound - d->dim[j].lower_bound + 1;
      off += d->dim[j].stride;
      if (++idx[j] < e) break;
      off -= d->dim[j].stride * e;
      idx[j] = 0;
    }
  }
  return buf;
}

static void unpack(const gfc_desc_t *d, size_t n, char *buf) {
  if (buf == d->base_addr) return;
  size_t el = d->dtype.elem_len;
  ptrdiff_t idx[15] = {0}, off = 0;
  for (size_t k = 0; k < n; k++) {
    memcpy((char *)d->base_addr + off * (ptrdiff_t)el, buf + k * el, el);
    for (int j = 0; j < d->dtype.rank; j++) {
      ptrdiff_t e = d->dim[j].upper_bound - d->dim[j].lower_bound + 1;
      off += d->dim[j].stride;
      if (++idx[j] < e) break;
      off -= d->dim[j].stride * e;
      idx[j] = 0;
    }
  }
  free(buf);
}

static MPI_Datatype mpi_type(const gfc_desc_t *d, const char *what) {
  size_t el = d->dtype.elem_len;
  switch (d->dtype.type) {
  case BT_INTEGER:
    if (el == 1) return MPI_INT8_T;
    if (el == 2) return MPI_INT16_T;
    if (el == 4) return MPI_INT32_T;
    if (el == 8) return MPI_INT64_T;
    break;
  case BT_REAL:
    if (el == 4) return MPI_FLOAT;
    if (el == 8) return MPI_DOUBLE;
    if (el == 16) return MPI_LONG_DOUBLE;
    break;
  case BT_COMPLEX:
    if (el == 8) return MPI_C_FLOAT_COMPLEX;
    if (el == 16) return MPI_C_DOUBLE_COMPLEX;
    break;
  }
  caf_fail("%s of type %d with %zu-byte elements is not supported", what, d->dtype.type, el);
}

static void reduce(gfc_desc_t *a, int result_image, MPI_Datatype ty, MPI_Op op, int *stat, const char *what) {
  int root = 0;
  MPI_Comm comm = caf_coll_comm(result_image, &root, what);
  int contig;
  size_t n = elems(a, &contig);
  char *buf = pack(a, n, contig);
  if (result_image > 0) {
    int me;
    MPI_Comm_rank(comm, &me);
    if (root == me) MPI_Reduce(MPI_IN_PLACE, buf, (int)n, ty, op, root, comm);
    else MPI_Reduce(buf, NULL, (int)n, ty, op, root, comm);
  } else {
    MPI_Allreduce(MPI_IN_PLACE, buf, (int)n, ty, op, comm);
  }
  unpack(a, n, buf);
  if (stat) *stat = 0;
}

void CAF(co_sum)(gfc_desc_t *a, int result_image, int *stat, char *errmsg, size_t errmsg_len) {
  (void)errmsg;
  (void)errmsg_len;
  reduce(a, result_image, mpi_type(a, "co_sum"), MPI_SUM, stat, "co_sum");
}

void CAF(co_min)(gfc_desc_t *a, int result_image, int *stat, char *errmsg, int a_len, size_t errmsg_len) {
  (void)errmsg;
  (void)errmsg_len;
  (void)a_len;
  if (a->dtype.type == BT_COMPLEX) caf_fail("co_min of a complex argument");
  reduce(a, result_image, mpi_type(a, "co_min"), MPI_MIN, stat, "co_min");
}

void CAF(co_max)(gfc_desc_t *a, int result_image, int *stat, char *errmsg, int a_len, size_t errmsg_len) {
  (void)errmsg;
  (void)errmsg_len;
  (void)a_len;
  if (a->dtype.type == BT_COMPLEX) caf_fail("co_max of a complex argument");
  reduce(a, result_image, mpi_type(a, "co_max"), MPI_MAX, stat, "co_max");
}

void CAF(co_broadcast)(gfc_desc_t *a, int source_image, int *stat, char *errmsg, size_t errmsg_len) {
  (void)errmsg;
  (void)errmsg_len;
  int root = 0;
  MPI_Comm comm = caf_coll_comm(source_image > 0 ? source_image : 1, &root, "co_broadcast");
  int contig;
  size_t n = elems(a, &contig);
  char *buf = pack(a, n, contig);
  MPI_Bcast(buf, (int)(n * a->dtype.elem_len), MPI_BYTE, root, comm);
  unpack(a, n, buf);
  if (stat) *stat = 0;
}

/* co_reduce: the user's pure function of two scalars of the argument's type, called
 * by reference, its result returned by value (gfortran's opr_flags 0). */
static void *user_opr;
static int user_type;
static size_t user_len;

static void user_op(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  for (int i = 0; i < *len; i++) {
    char *a = (char *)in + (size_t)i * user_len, *b = (char *)inout + (size_t)i * user_len;
    switch (user_type) {
    case 'i': *(int32_t *)b = ((int32_t(*)(void *, void *))user_opr)(a, b); break;
    case 'l': *(int64_t *)b = ((int64_t(*)(void *, void *))user_opr)(a, b); break;
    case 'f': *(float *)b = ((float (*)(void *, void *))user_opr)(a, b); break;
    case 'd': *(double *)b = ((double (*)(void *, void *))user_opr)(a, b); break;
    }
  }
}

void CAF(co_reduce)(gfc_desc_t *a, void *(*opr)(void *, void *), int opr_flags, int result_image, int *stat, char *errmsg,
                    int a_len, size_t errmsg_len) {
  (void)errmsg;
  (void)errmsg_len;
  (void)a_len;
  size_t el = a->dtype.elem_len;
  int ty = a->dtype.type;
  if (opr_flags != 0) caf_fail("co_reduce with an operation taking VALUE or character arguments is not supported");
  if ((ty == BT_INTEGER || ty == BT_LOGICAL) && el == 4) user_type = 'i';
  else if ((ty == BT_INTEGER || ty == BT_LOGICAL) && el == 8) user_type = 'l';
  else if (ty == BT_REAL && el == 4) user_type = 'f';
  else if (ty == BT_REAL && el == 8) user_type = 'd';
  else caf_fail("co_reduce of type %d with %zu-byte elements is not supported", ty, el);
  user_opr = (void *)opr;
  user_len = el;
  MPI_Datatype dt;
  MPI_Type_contiguous((int)el, MPI_BYTE, &dt);
  MPI_Type_commit(&dt);
  MPI_Op op;
  MPI_Op_create(user_op, 1, &op);
  reduce(a, result_image, dt, op, stat, "co_reduce");
  MPI_Op_free(&op);
  MPI_Type_free(&dt);
}
