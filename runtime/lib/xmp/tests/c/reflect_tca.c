/* Reflect of 1-, 2- and 3-D block arrays on node grids of every orientation,
 * widths 1 and 2 (asymmetric), periodic or not, synchronous and async, each
 * reflected several times while the values change. tests/mpi.rs runs it with
 * XMPC_TCA_SUBCLUSTER=2 (halos inside a subcluster on TCA chains: Memcpy for
 * the first dimension, Memcpy2D for rows above 8 B, pack + Memcpy for 8 B
 * columns) and without. Every allocated cell is checked after each reflect:
 * inside the widths the owner's value (wrapped where periodic), elsewhere in
 * the shadows the untouched -1. The last case (skipped with argument "small")
 * has a contiguous halo above 256 KB, which goes over MPI even inside a
 * subcluster (Omni's route). */
#include "check.h"

#define MAXD 3

typedef struct {
  int nd;
  long ext[MAXD];
  xmpc_array *d;
  double *a;
  xmpc_dim dim[MAXD];
} arr;

static double val(long it, const arr *x, const long *g) {
  double lin = 0;
  for (int k = 0; k < x->nd; k++) lin = lin * x->ext[k] + g[k];
  return it * 1e10 + lin + 1;
}

static arr make(int nd, const long *ext, const long *ps, const long *sl, const long *sh) {
  arr x;
  x.nd = nd;
  long lo[MAXD], hi[MAXD];
  int fm[MAXD], al[MAXD];
  long args[MAXD];
  for (int k = 0; k < nd; k++) {
    x.ext[k] = ext[k];
    lo[k] = 0;
    hi[k] = ext[k] - 1;
    fm[k] = XMPC_DIST_BLOCK;
    al[k] = k;
    args[k] = 0;
  }
  xmpc_nodes *p = xmpc_nodes_new(&L, nd, ps);
  xmpc_template *t = xmpc_template_new(&L, nd, lo, hi, 1);
  xmpc_distribute(&L, t, p, fm, args, NULL);
  x.d = xmpc_array_new(&L, t, nd, sizeof(double), ext, al, NULL);
  xmpc_array_shadow(&L, x.d, sl, sh, NULL);
  x.a = xmpc_array_alloc(&L, x.d);
  for (int k = 0; k < nd; k++) xmpc_array_dim(x.d, k, &x.dim[k]);
  return x;
}

static long cells(const arr *x) {
  long n = 1;
  for (int k = 0; k < x->nd; k++) n *= x->dim[k].alloc;
  return n;
}

/* global index (per dim) of local cell `c` (C order over the allocated extents) */
static void global(const arr *x, long c, long *g) {
  for (int k = x->nd - 1; k >= 0; k--) {
    g[k] = c % x->dim[k].alloc + x->dim[k].offset;
    c /= x->dim[k].alloc;
  }
}

static int owned(const arr *x, const long *g) {
  for (int k = 0; k < x->nd; k++)
    if (g[k] < x->dim[k].lower || g[k] > x->dim[k].upper) return 0;
  return 1;
}

static void fill(arr *x, long it) {
  long g[MAXD];
  for (long c = 0; c < cells(x); c++) {
    global(x, c, g);
    x->a[c] = owned(x, g) ? val(it, x, g) : -1;
  }
}

static int bad_cells;

static void check(const arr *x, long it, const long *wl, const long *wh, const int *per, const char *what) {
  long g[MAXD];
  for (long c = 0; c < cells(x); c++) {
    global(x, c, g);
    double want;
    int off = 0, out = 0;
    long w[MAXD];
    for (int k = 0; k < x->nd; k++) {
      w[k] = g[k];
      if (g[k] < x->dim[k].lower - wl[k] || g[k] > x->dim[k].upper + wh[k]) out = 1;
      if (g[k] < 0 || g[k] >= x->ext[k]) {
        if (per[k]) w[k] = (g[k] + x->ext[k]) % x->ext[k];
        else off = 1;
      }
    }
    want = (out || off) ? -1 : val(it, x, w);
    if (x->a[c] != want) {
      if (bad_cells++ < 5)
        fprintf(stderr, "[node %d] %s iteration %ld: cell (%ld, %ld, %ld) = %.0f, want %.0f\n", xmp_all_node_num(),
                what, it, g[0], x->nd > 1 ? g[1] : 0, x->nd > 2 ? g[2] : 0, x->a[c], want);
      fails++;
      return;
    }
  }
}

/* Reflects `x` ITERS times with widths wl:wh (periodic per[]); async every
 * other time. */
static void run(arr *x, const long *wl, const long *wh, const int *per, const char *what) {
  for (long it = 0; it < 6; it++) {
    fill(x, it);
    if (it % 2) {
      xmpc_reflect(&L, x->d, wl, wh, per, 3);
      xmpc_wait_async(&L, 3);
    } else {
      xmpc_reflect(&L, x->d, wl, wh, per, -1);
    }
    check(x, it, wl, wh, per, what);
  }
}

static void cases(int nd, const long *ext, const long *ps, const char *what) {
  long s2[MAXD] = {2, 2, 2}, w1[MAXD] = {1, 1, 1}, w2[MAXD] = {2, 2, 2}, w21[MAXD] = {2, 1, 2}, w12[MAXD] = {1, 2, 1};
  int none[MAXD] = {0, 0, 0}, all[MAXD] = {1, 1, 1}, first[MAXD] = {1, 0, 0};
  arr x = make(nd, ext, ps, s2, s2);
  run(&x, w1, w1, none, what);
  run(&x, w2, w2, all, what);
  run(&x, w21, w12, first, what);
  run(&x, w12, w21, none, what);
  xmpc_array_free(&L, x.d);
}

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  int np = xmp_all_num_nodes();
  int small = argc > 1 && strcmp(argv[1], "small") == 0;
  long h = np % 2 == 0 ? np / 2 : 1, r = np / h;
  /* 1-D */
  {
    long ext[1] = {23}, ps[1] = {np};
    cases(1, ext, ps, "1-D");
  }
  /* 2-D: rows, columns, both */
  {
    long ext[2] = {19, 17};
    long rows[2] = {np, 1}, cols[2] = {1, np}, both[2] = {h, r};
    cases(2, ext, rows, "2-D rows");
    cases(2, ext, cols, "2-D columns");
    cases(2, ext, both, "2-D both");
  }
  /* 3-D: each dimension distributed, and two at once */
  {
    long ext[3] = {12, 16, 14};
    long p0[3] = {np, 1, 1}, p1[3] = {1, np, 1}, p2[3] = {1, 1, np}, p12[3] = {1, h, r};
    cases(3, ext, p0, "3-D dim 1");
    cases(3, ext, p1, "3-D dim 2");
    cases(3, ext, p2, "3-D dim 3");
    cases(3, ext, p12, "3-D dims 2-3");
  }
  /* a contiguous halo of 40000 doubles (320 KB): MPI inside a subcluster too */
  if (!small) {
    long ext[2] = {8 * np, 40000}, ps[2] = {np, 1}, s1[2] = {1, 0}, w1[2] = {1, 0};
    int per[2] = {1, 0};
    arr x = make(2, ext, ps, s1, s1);
    run(&x, w1, w1, per, "2-D 320 KB rows");
    xmpc_array_free(&L, x.d);
  }
  return finish();
}
