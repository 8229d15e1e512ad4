/* Reductions: every operator on int/long/double/float/bool, location ops, subsets. */
#include "check.h"
#include <stdbool.h>

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  int me = xmp_node_num(), n = xmp_num_nodes();
  xmpc_nodes *p = nodes1(0);
  /* int: sum prod band bor bxor land lor max min */
  int v[9] = {me, me, 0xff ^ (1 << me), 1 << me, 1 << me, me > 0, me == 1, me, me};
  int ops[9] = {XMPC_OP_SUM, XMPC_OP_PROD, XMPC_OP_BAND, XMPC_OP_BOR, XMPC_OP_BXOR,
                XMPC_OP_LAND, XMPC_OP_LOR, XMPC_OP_MAX, XMPC_OP_MIN};
  for (int k = 0; k < 9; k++) xmpc_reduction(&L, &v[k], 1, XMPC_TYPE_INT, ops[k], p);
  int fact = 1, bor = 0, band = 0xff;
  for (int i = 1; i <= n; i++) fact *= i, bor |= 1 << i, band &= 0xff ^ (1 << i);
  CHECK(v[0] == n * (n + 1) / 2);
  CHECK(v[1] == fact);
  CHECK(v[2] == band);
  CHECK(v[3] == bor && v[4] == bor);
  CHECK(v[5] == 1 && v[6] == 1);
  CHECK(v[7] == n && v[8] == 1);
  /* arrays of doubles, long, float, unsigned char, bool */
  double d[3] = {0.5 * me, -me, me};
  xmpc_reduction(&L, d, 3, XMPC_TYPE_DOUBLE, XMPC_OP_SUM, NULL);
  CHECK(d[0] == 0.25 * n * (n + 1) && d[2] == n * (n + 1) / 2.0);
  long l = 1L << 40;
  xmpc_reduction(&L, &l, 1, XMPC_TYPE_LONG, XMPC_OP_SUM, NULL);
  CHECK(l == (long)n << 40);
  float f = (float)me;
  xmpc_reduction(&L, &f, 1, XMPC_TYPE_FLOAT, XMPC_OP_MAX, NULL);
  CHECK(f == (float)n);
  unsigned char uc = (unsigned char)(1 << (me - 1));
  xmpc_reduction(&L, &uc, 1, XMPC_TYPE_UCHAR, XMPC_OP_BOR, NULL);
  CHECK(uc == (unsigned char)((1 << n) - 1));
  bool b = me == n;
  xmpc_reduction(&L, &b, 1, XMPC_TYPE_BOOL, XMPC_OP_LOR, NULL);
  CHECK(b);
  double cx[2] = {me, 1}; /* double complex as two doubles */
  xmpc_reduction(&L, cx, 1, XMPC_TYPE_DOUBLE_COMPLEX, XMPC_OP_SUM, NULL);
  CHECK(cx[0] == n * (n + 1) / 2.0 && cx[1] == n);

  /* location ops: value = 5 on every node except node 1 (1); locations differ */
  double x = me == 1 ? 1.0 : 5.0;
  int li = 10 * me;
  long lj = -me;
  void *locs[2] = {&li, &lj};
  int lt[2] = {XMPC_TYPE_INT, XMPC_TYPE_LONG};
  double y = x;
  xmpc_reduction_loc(&L, &y, XMPC_TYPE_DOUBLE, XMPC_OP_FIRSTMAX, NULL, 2, locs, lt);
  CHECK(y == (n > 1 ? 5.0 : 1.0));
  CHECK(li == (n > 1 ? 20 : 10) && lj == (n > 1 ? -2 : -1)); /* smallest location among ties */
  y = x, li = 10 * me, lj = -me;
  xmpc_reduction_loc(&L, &y, XMPC_TYPE_DOUBLE, XMPC_OP_LASTMAX, NULL, 2, locs, lt);
  CHECK(li == 10 * n && lj == -n);
  y = x, li = 10 * me, lj = -me;
  xmpc_reduction_loc(&L, &y, XMPC_TYPE_DOUBLE, XMPC_OP_MIN, NULL, 2, locs, lt);
  CHECK(y == 1.0 && li == 10 && lj == -1);
  int iv = me % 2, at = me;
  void *l1[1] = {&at};
  int t1[1] = {XMPC_TYPE_INT};
  xmpc_reduction_loc(&L, &iv, XMPC_TYPE_INT, XMPC_OP_LASTMIN, NULL, 1, l1, t1);
  CHECK(iv == (n > 1 ? 0 : 1) && at == (n > 1 ? n - (n % 2) : 1));

  /* on a subset p(1:2) */
  if (n >= 2) {
    long lo = 1, hi = 2, st = 1, sz = 2;
    xmpc_nodes *q = xmpc_nodes_new_sub(&L, 1, &sz, p, &lo, &hi, &st);
    int s = me;
    xmpc_reduction(&L, &s, 1, XMPC_TYPE_INT, XMPC_OP_SUM, q);
    CHECK(s == (me <= 2 ? 3 : me));
    CHECK(xmpc_nodes_is_member(q) == (me <= 2));
    CHECK(xmpc_nodes_rank(q) == (me <= 2 ? me - 1 : -1));
  }
  return finish();
}
