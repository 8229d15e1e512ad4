/* 2-D block×block reflect on a 2-D node grid: row halos (contiguous), column
 * halos (strided) and corners; also a block-row array with a column shadow. */
#include "check.h"
#define N 17
#define M 13

static double val(long i, long j) { return i * 1000 + j; }

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  int np = xmp_all_num_nodes();
  long ps[2] = {np >= 4 ? 2 : 1, 0}; /* round order: p(d0, d1) */
  xmpc_nodes *p = xmpc_nodes_new(&L, 2, ps);
  /* template t(0:M-1, 0:N-1) (round: dim0 = j, dim1 = i), block,block */
  long tlo[2] = {0, 0}, thi[2] = {M - 1, N - 1};
  xmpc_template *t = xmpc_template_new(&L, 2, tlo, thi, 1);
  int fm[2] = {XMPC_DIST_BLOCK, XMPC_DIST_BLOCK};
  long args[2] = {0, 0};
  xmpc_distribute(&L, t, p, fm, args, NULL);
  /* double a[N][M]; align a[i][j] with t(j, i); shadow a[1][1] */
  long ext[2] = {N, M}, sl[2] = {1, 1}, sh[2] = {1, 1};
  int al[2] = {1, 0};
  xmpc_array *ad = xmpc_array_new(&L, t, 2, sizeof(double), ext, al, NULL);
  xmpc_array_shadow(&L, ad, sl, sh, NULL);
  double *a = xmpc_array_alloc(&L, ad);
  xmpc_dim di, dj;
  xmpc_array_dim(ad, 0, &di);
  xmpc_array_dim(ad, 1, &dj);
  long ld = dj.alloc;
#define A(i, j) a[((i) - di.offset) * ld + ((j) - dj.offset)]
  xmpc_sched si, sj;
  xmpc_loop_sched(&L, t, 1, 0, N - 1, 1, &si);
  xmpc_loop_sched(&L, t, 0, 0, M - 1, 1, &sj);
  for (long i = si.first; i <= si.last; i++)
    for (long j = sj.first; j <= sj.last; j++) A(i, j) = val(i, j);
  xmpc_reflect(&L, ad, NULL, NULL, NULL, -1);
  for (long i = di.lower - 1; i <= di.upper + 1; i++)
    for (long j = dj.lower - 1; j <= dj.upper + 1; j++) {
      int out = i < 0 || i >= N || j < 0 || j >= M;
      CHECK(A(i, j) == (out ? 0.0 : val(i, j)));
    }
  /* column-only reflect with periodic wrap in j */
  long wl[2] = {0, 1}, wh[2] = {0, 1};
  int per[2] = {0, 1};
  xmpc_reflect(&L, ad, wl, wh, per, -1);
  for (long i = di.lower; i <= di.upper; i++) {
    CHECK(A(i, dj.lower - 1) == val(i, (dj.lower - 1 + M) % M));
    CHECK(A(i, dj.upper + 1) == val(i, (dj.upper + 1) % M));
  }
  /* the same, async: staged (packed) halos are unpacked by wait_async */
  for (long i = si.first; i <= si.last; i++)
    for (long j = sj.first; j <= sj.last; j++) A(i, j) = -val(i, j);
  xmpc_reflect(&L, ad, wl, wh, per, 3);
  xmpc_wait_async(&L, 3);
  for (long i = di.lower; i <= di.upper; i++) {
    CHECK(A(i, dj.lower - 1) == -val(i, (dj.lower - 1 + M) % M));
    CHECK(A(i, dj.upper + 1) == -val(i, (dj.upper + 1) % M));
  }
  return finish();
}
