/* Reflect through shared memory and MPI alike (tests/mpi.rs runs it with
 * XMPC_SHM_HALO=0, default, and XMPC_SHM_GROUP=2): two 2-D block×block arrays
 * with asymmetric shadows on a 2-D node grid, reflected 40 times while being
 * updated (plain, periodic, async, one side only). Every halo cell, corners
 * included, is compared with the closed form of the current iteration. Prints
 * "shm halos N" (node 1): the count of halos that went through shared memory. */
#include "check.h"
#include <unistd.h>
#define N 37 /* rows (array dim 0) */
#define M 29 /* columns (array dim 1) */

static double val(long it, long k, long i, long j) { return k * 1e7 + it * 1e4 + i * 100 + j; }

typedef struct {
  xmpc_array *d;
  double *a;
  xmpc_dim di, dj;
} arr;

static double *at(arr *x, long i, long j) { return &x->a[(i - x->di.offset) * x->dj.alloc + (j - x->dj.offset)]; }

static void fill(arr *x, long it, long k) {
  for (long i = x->di.lower; i <= x->di.upper; i++)
    for (long j = x->dj.lower; j <= x->dj.upper; j++) *at(x, i, j) = val(it, k, i, j);
}

/* Halo cells within widths (lo0:hi0, lo1:hi1) must hold the owner's value
 * (wrapped where per[d]); cells off the array edge are not looked at. */
static void check(arr *x, long it, long k, const long *lo, const long *hi, const int *per) {
  for (long i = x->di.lower - lo[0]; i <= x->di.upper + hi[0]; i++)
    for (long j = x->dj.lower - lo[1]; j <= x->dj.upper + hi[1]; j++) {
      long ii = i, jj = j;
      int off = 0;
      if (ii < 0 || ii >= N) {
        if (per[0]) ii = (ii + N) % N; else off = 1;
      }
      if (jj < 0 || jj >= M) {
        if (per[1]) jj = (jj + M) % M; else off = 1;
      }
      if (off) continue;
      double want = val(it, k, ii, jj);
      if (*at(x, i, j) != want) {
        fprintf(stderr, "[node %d] iteration %ld array %ld: a[%ld][%ld] = %.0f, want %.0f\n", xmp_all_node_num(), it, k, i,
                j, *at(x, i, j), want);
        CHECK(*at(x, i, j) == want);
        return;
      }
    }
}

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  int np = xmp_all_num_nodes();
  long ps[2] = {np >= 4 ? 2 : 1, 0}; /* p(j-nodes, i-nodes) */
  xmpc_nodes *p = xmpc_nodes_new(&L, 2, ps);
  long tlo[2] = {0, 0}, thi[2] = {M - 1, N - 1};
  xmpc_template *t = xmpc_template_new(&L, 2, tlo, thi, 1);
  int fm[2] = {XMPC_DIST_BLOCK, XMPC_DIST_BLOCK};
  long args[2] = {0, 0};
  xmpc_distribute(&L, t, p, fm, args, NULL);
  long ext[2] = {N, M}, sl[2] = {2, 1}, sh[2] = {1, 2};
  int al[2] = {1, 0};
  arr x[2];
  for (int k = 0; k < 2; k++) {
    x[k].d = xmpc_array_new(&L, t, 2, sizeof(double), ext, al, NULL);
    xmpc_array_shadow(&L, x[k].d, sl, sh, NULL);
    x[k].a = xmpc_array_alloc(&L, x[k].d);
    xmpc_array_dim(x[k].d, 0, &x[k].di);
    xmpc_array_dim(x[k].d, 1, &x[k].dj);
  }
  long w1[2] = {1, 1}, w0[2] = {0, 0};
  int nper[2] = {0, 0}, per[2] = {1, 1}, colper[2] = {0, 1};
  for (long it = 0; it < 40; it++) {
    for (int k = 0; k < 2; k++) fill(&x[k], it, k);
    switch (it % 5) {
    case 0: /* declared widths, both arrays */
      for (int k = 0; k < 2; k++) xmpc_reflect(&L, x[k].d, NULL, NULL, NULL, -1);
      for (int k = 0; k < 2; k++) check(&x[k], it, k, sl, sh, nper);
      break;
    case 1: /* periodic width 1 in both dims, both arrays in flight at once; twice
             * in a row with half the nodes late to wait: a sender must not refill a
             * halo its late receiver has not taken yet */
    case 2:
      for (int k = 0; k < 2; k++) xmpc_reflect(&L, x[k].d, w1, w1, per, 5);
      if (xmp_all_node_num() % 2) usleep(2000);
      xmpc_wait_async(&L, 5);
      for (int k = 0; k < 2; k++) check(&x[k], it, k, w1, w1, per);
      break;
    case 3: /* strided only: width 2 below, 0 above in columns, periodic */
    {
      long lo[2] = {0, 1}, hi[2] = {0, 2};
      xmpc_reflect(&L, x[0].d, lo, hi, colper, -1);
      xmpc_reflect(&L, x[1].d, lo, w0, colper, 9);
      xmpc_wait_async(&L, 9);
      check(&x[0], it, 0, lo, hi, colper);
      check(&x[1], it, 1, lo, w0, colper);
      break;
    }
    case 4: /* rows only, asymmetric 2:1 */
    {
      long lo[2] = {2, 0}, hi[2] = {1, 0};
      for (int k = 0; k < 2; k++) xmpc_reflect(&L, x[k].d, lo, hi, NULL, -1);
      for (int k = 0; k < 2; k++) check(&x[k], it, k, lo, hi, nper);
      break;
    }
    }
  }
  int shm = xmpc_array_shm_halos(x[0].d) + xmpc_array_shm_halos(x[1].d);
  xmpc_reduction(&L, &shm, 1, XMPC_TYPE_INT, XMPC_OP_SUM, NULL);
  int wins = xmpc_array_shm_windows(x[0].d) + xmpc_array_shm_windows(x[1].d);
  xmpc_reduction(&L, &wins, 1, XMPC_TYPE_INT, XMPC_OP_SUM, NULL);
  if (xmp_all_node_num() == 1) printf("shm halos %d\nshm windows %d\n", shm, wins);
  return finish();
}
