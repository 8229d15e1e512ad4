/* 1-D block reflect: default widths, asymmetric shadow, periodic, async. */
#include "check.h"
#define N 23

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  xmpc_nodes *p = nodes1(0);
  xmpc_template *t = tmpl1(0, N - 1, p, XMPC_DIST_BLOCK, 0, NULL);
  long ext = N, lo = 2, hi = 1;
  int ad = 0;
  xmpc_array *ad_ = xmpc_array_new(&L, t, 1, sizeof(double), &ext, &ad, NULL);
  xmpc_array_shadow(&L, ad_, &lo, &hi, NULL);
  double *a = xmpc_array_alloc(&L, ad_);
  xmpc_dim d;
  xmpc_array_dim(ad_, 0, &d);
  CHECK(((size_t)a & 63) == 0);
  CHECK(d.shadow_lo == 2 && d.shadow_hi == 1);
  CHECK(d.alloc == d.upper - d.lower + 1 + 3);
  for (long i = 0; i < d.alloc; i++) CHECK(a[i] == 0.0);
  xmpc_sched s;
  xmpc_loop_sched(&L, t, 0, 0, N - 1, 1, &s);
  CHECK(s.first == d.lower && s.last == d.upper);
  for (long g = s.first; g <= s.last; g++) a[g - d.offset] = 100 + g;
  xmpc_reflect(&L, ad_, NULL, NULL, NULL, -1);
  for (long g = d.lower - 2; g <= d.upper + 1; g++) {
    double want = (g < 0 || g >= N) ? 0.0 : 100 + g;
    CHECK(a[g - d.offset] == want);
  }
  /* periodic, width 1:1 */
  long w1 = 1;
  int per = 1;
  for (long i = 0; i < d.alloc; i++) a[i] = -1;
  for (long g = s.first; g <= s.last; g++) a[g - d.offset] = 100 + g;
  xmpc_reflect(&L, ad_, &w1, &w1, &per, -1);
  CHECK(a[d.lower - 1 - d.offset] == 100 + (d.lower - 1 + N) % N);
  CHECK(a[d.upper + 1 - d.offset] == 100 + (d.upper + 1) % N);
  CHECK(a[d.lower - 2 - d.offset] == -1); /* outside the width */
  /* async + wait_async, repeated (persistent requests reused) */
  for (int it = 0; it < 3; it++) {
    for (long g = s.first; g <= s.last; g++) a[g - d.offset] = it * 1000 + g;
    xmpc_reflect(&L, ad_, &w1, &w1, &per, 7);
    xmpc_wait_async(&L, 7);
    CHECK(a[d.lower - 1 - d.offset] == it * 1000 + (d.lower - 1 + N) % N);
    CHECK(a[d.upper + 1 - d.offset] == it * 1000 + (d.upper + 1) % N);
  }
  /* full shadow (`shadow b[*]`): reflect gathers the whole array everywhere */
  int full = 1;
  xmpc_array *bd = xmpc_array_new(&L, t, 1, sizeof(int), &ext, &ad, NULL);
  xmpc_array_shadow(&L, bd, NULL, NULL, &full);
  int *b = xmpc_array_alloc(&L, bd);
  xmpc_dim e;
  xmpc_array_dim(bd, 0, &e);
  CHECK(e.alloc == N && e.offset == 0);
  for (long g = e.lower; g <= e.upper; g++) b[g] = 7 * (int)g;
  xmpc_reflect(&L, bd, NULL, NULL, NULL, -1);
  for (long g = 0; g < N; g++) CHECK(b[g] == 7 * g);
  return finish();
}
