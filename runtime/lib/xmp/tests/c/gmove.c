/* gmove between block, cyclic, cyclic(3), gblock and local sections (incl. a
 * negative stride and a 2-D transpose-like column copy). */
#include "check.h"
#define N 20

static int own(const xmpc_dim *d, long g) {
  if (g < d->lower || g > d->upper) return 0;
  if (d->format != XMPC_DIST_CYCLIC) return 1;
  return (g - d->offset) % (d->width * d->procs) < d->width;
}
static long lidx(const xmpc_dim *d, long g) {
  if (d->format == XMPC_DIST_CYCLIC)
    return ((g - d->offset) / (d->width * d->procs)) * d->width + (g - d->offset) % d->width;
  return g - d->offset;
}

static xmpc_array *arr1(xmpc_template *t, int **base, xmpc_dim *d) {
  long ext = N;
  int al = 0;
  xmpc_array *a = xmpc_array_new(&L, t, 1, sizeof(int), &ext, &al, NULL);
  *base = xmpc_array_alloc(&L, a);
  xmpc_array_dim(a, 0, d);
  return a;
}

static void sec(xmpc_section *s, xmpc_array *a, void *base, const long *ext, long *lo, long *hi, long *st) {
  s->array = a;
  s->base = base;
  s->ndims = 1;
  s->elem_size = sizeof(int);
  s->extent = ext;
  s->lo = lo, s->hi = hi, s->st = st;
}

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  int n = xmp_num_nodes();
  xmpc_nodes *p = nodes1(0);
  long map[8];
  for (int i = 0; i < n; i++) map[i] = 0;
  map[n - 1] = N - 3, map[0] += 3; /* uneven gblock */
  xmpc_template *tb = tmpl1(0, N - 1, p, XMPC_DIST_BLOCK, 0, NULL);
  xmpc_template *tc = tmpl1(0, N - 1, p, XMPC_DIST_CYCLIC, 1, NULL);
  xmpc_template *tw = tmpl1(0, N - 1, p, XMPC_DIST_CYCLIC, 3, NULL);
  xmpc_template *tg = tmpl1(0, N - 1, p, XMPC_DIST_GBLOCK, 0, map);
  int *a, *b, *c, *g;
  xmpc_dim da, db, dc, dg;
  xmpc_array *A = arr1(tb, &a, &da), *B = arr1(tc, &b, &db), *C = arr1(tw, &c, &dc), *G = arr1(tg, &g, &dg);
  int loc[N];
  long ext = N;
  for (long i = 0; i < N; i++)
    if (own(&da, i)) a[lidx(&da, i)] = (int)i;
  xmpc_section s, d;
  long z = 0, last = N - 1, one = 1;
  /* b[:] = a[:] (block -> cyclic) */
  sec(&d, B, b, &ext, &z, &last, &one);
  sec(&s, A, a, &ext, &z, &last, &one);
  xmpc_gmove(&L, &d, &s, XMPC_GMOVE_NORMAL, -1);
  for (long i = 0; i < N; i++)
    if (own(&db, i)) CHECK(b[lidx(&db, i)] == i);
  /* c[2:11] = b[5:14] (cyclic -> cyclic(3)) */
  long l2 = 2, h2 = 11, l5 = 5, h5 = 14;
  sec(&d, C, c, &ext, &l2, &h2, &one);
  sec(&s, B, b, &ext, &l5, &h5, &one);
  xmpc_gmove(&L, &d, &s, XMPC_GMOVE_NORMAL, -1);
  for (long i = 0; i < N; i++)
    if (own(&dc, i)) CHECK(c[lidx(&dc, i)] == (i >= 2 && i <= 11 ? i + 3 : 0));
  /* loc[:] = c[:] (distributed -> local, every node) */
  sec(&d, NULL, loc, &ext, &z, &last, &one);
  sec(&s, C, c, &ext, &z, &last, &one);
  xmpc_gmove(&L, &d, &s, XMPC_GMOVE_IN, -1);
  for (long i = 0; i < N; i++) CHECK(loc[i] == (i >= 2 && i <= 11 ? i + 3 : 0));
  /* g[0:N-1] = loc[N-1:0:-1] (local -> gblock, reversed) */
  long m1 = -1;
  sec(&d, G, g, &ext, &z, &last, &one);
  sec(&s, NULL, loc, &ext, &last, &z, &m1);
  xmpc_gmove(&L, &d, &s, XMPC_GMOVE_OUT, -1);
  for (long i = 0; i < N; i++)
    if (own(&dg, i)) CHECK(g[lidx(&dg, i)] == loc[N - 1 - i]);
  /* scalar element: a[7] = g[0] (one element, block <- gblock) */
  long s7 = 7;
  sec(&d, A, a, &ext, &s7, &s7, &one);
  sec(&s, G, g, &ext, &z, &z, &one);
  xmpc_gmove(&L, &d, &s, XMPC_GMOVE_NORMAL, -1);
  if (own(&da, 7)) CHECK(a[lidx(&da, 7)] == loc[N - 1]);
  /* local -> local overlapping copy */
  long l1 = 1, h1 = N - 1, h0 = N - 2;
  sec(&d, NULL, loc, &ext, &l1, &h1, &one);
  sec(&s, NULL, loc, &ext, &z, &h0, &one);
  int before[N];
  memcpy(before, loc, sizeof loc);
  xmpc_gmove(&L, &d, &s, XMPC_GMOVE_NORMAL, -1);
  for (long i = 1; i < N; i++) CHECK(loc[i] == before[i - 1]);
  return finish();
}
