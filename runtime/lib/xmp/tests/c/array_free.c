/* xmpc_array_free: 2500 create/reflect/free cycles (each reflect plan has a
 * shared-memory window on multi-process nodes: MPICH runs out of them after
 * ~2000 if they are not freed); a view that resolves to the caller's array is
 * only taken off by its free; xmp_desc_of forgets a freed array. */
#include "check.h"
#define N 40

static xmpc_array *make(xmpc_template *t, long sh) {
  long ext = N;
  int ad = 0;
  xmpc_array *a = xmpc_array_new(&L, t, 1, sizeof(double), &ext, &ad, NULL);
  xmpc_array_shadow(&L, a, &sh, &sh, NULL);
  return a;
}

/* fills the owned part with base + g, reflects (periodic), checks both halos */
static void fill_reflect_check(xmpc_array *a, double *p, double base) {
  xmpc_dim d;
  xmpc_array_dim(a, 0, &d);
  for (long g = d.lower; g <= d.upper; g++) p[g - d.offset] = base + g;
  long w = 1;
  int per = 1;
  xmpc_reflect(&L, a, &w, &w, &per, -1);
  if (d.upper >= d.lower) {
    CHECK(p[d.lower - 1 - d.offset] == base + (d.lower - 1 + N) % N);
    CHECK(p[d.upper + 1 - d.offset] == base + (d.upper + 1) % N);
  }
}

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  xmpc_nodes *p = nodes1(0);
  xmpc_template *t = tmpl1(0, N - 1, p, XMPC_DIST_BLOCK, 0, NULL);
  for (int it = 0; it < 2500; it++) {
    xmpc_array *a = make(t, 1);
    double *x = xmpc_array_alloc(&L, a);
    fill_reflect_check(a, x, it);
    CHECK(xmp_desc_of(x) == (void *)a);
    xmpc_array_free(&L, a);
  }
  /* a view mapping the block alike resolves to the first array */
  xmpc_array *a = make(t, 1);
  double *x = xmpc_array_alloc(&L, a);
  xmpc_dim d;
  xmpc_array_dim(a, 0, &d);
  fill_reflect_check(a, x, 1000);
  xmpc_array *v = xmpc_array_view(&L, make(t, 1), x, (size_t)d.alloc * sizeof(double));
  CHECK(v == a);
  fill_reflect_check(v, x, 2000);
  xmpc_array_free(&L, v); /* takes the view off only */
  CHECK(xmp_desc_of(x) == (void *)a);
  fill_reflect_check(a, x, 3000);
  /* a view mapping it differently (no shadow: a smaller block... same bytes, other
   * shadows) is a descriptor of its own, freed without touching the block */
  xmpc_array *b = make(t, 0);
  xmpc_array *u = xmpc_array_view(&L, b, x, (size_t)d.alloc * sizeof(double));
  CHECK(u == b);
  xmpc_array_free(&L, u);
  CHECK(xmp_desc_of(x) == (void *)a);
  fill_reflect_check(a, x, 4000);
  xmpc_array_free(&L, a);
  CHECK(xmp_desc_of(x) == NULL);
  xmpc_array_free(&L, NULL);
  return finish();
}
