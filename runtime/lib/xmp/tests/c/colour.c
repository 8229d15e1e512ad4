/* Cache colours of array blocks (issue 22): 14 arrays of 3 MiB per node
 * (2 MiB-aligned for huge pages) must not all start at the same address modulo
 * 4 KiB, or a stencil over them maps the same element of each to one L1 set.
 * Each block's start modulo 4 KiB differs from every other's by 256 bytes or more
 * (the colours advance by 320); each block is usable (written, reflected, read)
 * and freed. */
#include "check.h"
#include <stdint.h>
#define NARR 14

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  long n = xmp_num_nodes() * (3L << 20) / (long)sizeof(double);
  xmpc_nodes *p = nodes1(0);
  xmpc_template *t = tmpl1(0, n - 1, p, XMPC_DIST_BLOCK, 0, NULL);
  xmpc_array *a[NARR];
  double *x[NARR];
  for (int q = 0; q < NARR; q++) {
    int ad = 0;
    long sh = 1;
    a[q] = xmpc_array_new(&L, t, 1, sizeof(double), &n, &ad, NULL);
    xmpc_array_shadow(&L, a[q], &sh, &sh, NULL);
    x[q] = xmpc_array_alloc(&L, a[q]);
  }
  for (int q = 0; q < NARR; q++) {
    CHECK((uintptr_t)x[q] % 64 == 0);
    for (int r = 0; r < q; r++) {
      long d = (long)((uintptr_t)x[q] % 4096) - (long)((uintptr_t)x[r] % 4096);
      if (d < 0) d = -d;
      if (d > 2048) d = 4096 - d;
      CHECK(d >= 256);
    }
    xmpc_dim dm;
    xmpc_array_dim(a[q], 0, &dm);
    for (long g = dm.lower; g <= dm.upper; g++) x[q][g - dm.offset] = q + g;
    long w = 1;
    int per = 1;
    xmpc_reflect(&L, a[q], &w, &w, &per, -1);
    CHECK(x[q][dm.lower - 1 - dm.offset] == q + (dm.lower - 1 + n) % n);
    CHECK(x[q][dm.upper + 1 - dm.offset] == q + (dm.upper + 1) % n);
  }
  for (int q = 0; q < NARR; q++) xmpc_array_free(&L, a[q]);
  return finish();
}
