/* task on node subsets: executing nodes, collectives inside, nocomm, template tasks. */
#include "check.h"
#define N 16

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  int me = xmp_node_num(), n = xmp_num_nodes();
  xmpc_nodes *p = nodes1(0);
  long lo = 2, hi = n, st = 1;
  for (int rep = 0; rep < 3; rep++) { /* repeated: the task communicator is cached */
    int ran = 0;
    if (xmpc_task_begin(&L, p, &lo, &hi, &st, 0)) {
      ran = 1;
      CHECK(xmp_num_nodes() == n - 1);
      CHECK(xmp_node_num() == me - 1);
      CHECK(xmp_all_node_num() == me);
      int s = 1;
      xmpc_reduction(&L, &s, 1, XMPC_TYPE_INT, XMPC_OP_SUM, NULL);
      CHECK(s == n - 1);
      int b = me;
      xmpc_bcast(&L, &b, sizeof b, NULL, NULL, NULL);
      CHECK(b == 2);
      xmpc_task_end();
    }
    CHECK(ran == (me >= 2));
    CHECK(xmp_num_nodes() == n);
  }
  /* tasks: two disjoint halves, nocomm on the second */
  long h = (n + 1) / 2, a1 = 1, b2 = h + 1;
  if (xmpc_task_begin(&L, p, &a1, &h, &st, 0)) {
    int s = me;
    xmpc_reduction(&L, &s, 1, XMPC_TYPE_INT, XMPC_OP_SUM, NULL);
    CHECK(s == h * (h + 1) / 2);
    xmpc_task_end();
  }
  long nn = n;
  if (n > 1 && xmpc_task_begin(&L, p, &b2, &nn, &st, 1)) {
    CHECK(me > h);
    CHECK(xmp_node_num() == me - h);
    xmpc_task_end();
  }
  /* task on t(i): the owner of template index i */
  long tl = 0, th = N - 1;
  xmpc_template *t = xmpc_template_new(&L, 1, &tl, &th, 1);
  int fm = XMPC_DIST_CYCLIC;
  long w = 1;
  xmpc_distribute(&L, t, p, &fm, &w, NULL);
  long idx = 5;
  int owner = xmpc_task_begin_template(&L, t, &idx, 0);
  if (owner) xmpc_task_end();
  CHECK(owner == (5 % n == me - 1));
  return finish();
}
