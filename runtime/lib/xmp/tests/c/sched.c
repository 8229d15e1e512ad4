/* loop scheduling through the C ABI: every node's iterations, summed over the
 * nodes, cover each iteration exactly once (block, block(n), cyclic, cyclic(w),
 * gblock, dup), for several bounds and steps; plus loop range errors are
 * checked in Rust unit tests. */
#include "check.h"
#define N 37

static long walk(const xmpc_sched *s, long step, long *count) {
  long sum = 0;
  for (long c = s->first; c <= s->last; c += s->stride)
    for (long i = c; i <= (c + s->width - 1 < s->last ? c + s->width - 1 : s->last); i += step)
      sum += i, (*count)++;
  return sum;
}

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  int n = xmp_num_nodes();
  xmpc_nodes *p = nodes1(0);
  long map[8] = {0};
  map[0] = N - 2 * (n - 1);
  for (int i = 1; i < n; i++) map[i] = 2;
  int fm[6] = {XMPC_DIST_BLOCK, XMPC_DIST_BLOCK, XMPC_DIST_CYCLIC, XMPC_DIST_CYCLIC, XMPC_DIST_GBLOCK, XMPC_DIST_DUP};
  long ar[6] = {0, (N + n - 1) / n + 1, 1, 4, 0, 0};
  for (int k = 0; k < 6; k++) {
    xmpc_template *t = tmpl1(-3, N - 4, p, fm[k], ar[k], fm[k] == XMPC_DIST_GBLOCK ? map : NULL);
    long bounds[4][3] = {{-3, N - 4, 1}, {0, N - 5, 2}, {-1, 20, 3}, {5, 4, 1}};
    for (int b = 0; b < 4; b++) {
      long lo = bounds[b][0], hi = bounds[b][1], step = bounds[b][2];
      xmpc_sched s[8];
      int m = xmpc_loop_sched_multi(&L, t, 0, lo, hi, step, s, 8);
      CHECK(m <= 8);
      long cnt = 0, sum = 0;
      for (int j = 0; j < m; j++) sum += walk(&s[j], step, &cnt);
      if (fm[k] != XMPC_DIST_CYCLIC || ar[k] == 1) {
        xmpc_sched one;
        xmpc_loop_sched(&L, t, 0, lo, hi, step, &one);
        long c1 = 0;
        CHECK(walk(&one, step, &c1) == sum && c1 == cnt);
      }
      long want_cnt = 0, want_sum = 0;
      for (long i = lo; i <= hi; i += step) want_cnt++, want_sum += i;
      if (fm[k] == XMPC_DIST_DUP) want_cnt *= n, want_sum *= n;
      xmpc_reduction(&L, &cnt, 1, XMPC_TYPE_LONG, XMPC_OP_SUM, NULL);
      xmpc_reduction(&L, &sum, 1, XMPC_TYPE_LONG, XMPC_OP_SUM, NULL);
      CHECK(cnt == want_cnt && sum == want_sum);
    }
  }
  return finish();
}
