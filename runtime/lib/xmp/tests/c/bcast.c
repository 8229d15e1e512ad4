/* bcast from a node reference, on a subset, and barrier on. */
#include "check.h"

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  int me = xmp_node_num(), n = xmp_num_nodes();
  xmpc_nodes *p = nodes1(0);
  double a[5];
  for (int i = 0; i < 5; i++) a[i] = me * 10 + i;
  xmpc_bcast(&L, a, sizeof a, NULL, NULL, NULL); /* from the first node */
  for (int i = 0; i < 5; i++) CHECK(a[i] == 10 + i);
  long from = n; /* from p(n) */
  int x = me;
  xmpc_bcast(&L, &x, sizeof x, p, &from, NULL);
  CHECK(x == n);
  if (n >= 3) { /* bcast (x) from p(3) on p(2:3) */
    long lo = 2, hi = 3, st = 1, sz = 2, f3 = 3;
    xmpc_nodes *q = xmpc_nodes_new_sub(&L, 1, &sz, p, &lo, &hi, &st);
    x = me;
    xmpc_bcast(&L, &x, sizeof x, p, &f3, q);
    CHECK(x == (me == 2 || me == 3 ? 3 : me));
    xmpc_barrier(&L, q);
  }
  xmpc_barrier(&L, NULL);
  xmpc_barrier(&L, p);
  return finish();
}
