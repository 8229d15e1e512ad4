/* Halo-exchange micro-benchmark (2 processes): a 2048×2048 double array with
 * shadow width 1, reflected
 *   row:    block rows    (distribute t(*, block)) — contiguous halo of 2048 doubles
 *   column: block columns (distribute t(block, *)) — strided halo, 2048 doubles at
 *           a stride of 1026 doubles
 *   mpi:    hand-written MPI_Sendrecv of the two contiguous rows
 *   mpicol: hand-written MPI_Sendrecv of the two columns with MPI_Type_vector
 * Prints the median time per exchange in microseconds, and a RESULT line
 * (row, column, MPI row, MPI column) for run.sh. Halos to neighbours on the same
 * node go through shared memory unless XMPC_SHM_HALO=0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "xmpc_rt.h"
#include "xmp.h"

#define N 2048
#define REPS 300
static const xmpc_loc L = {"halo.c", 1, "reflect (a)"};

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
static double mins[4];
static int nmin;
static double median(double *t, int n) {
  qsort(t, n, sizeof *t, cmp);
  mins[nmin++] = t[0];
  return t[n / 2];
}

static double bench_reflect(xmpc_nodes *p, int split_rows) {
  long lo[2] = {0, 0}, hi[2] = {N - 1, N - 1};
  xmpc_template *t = xmpc_template_new(&L, 2, lo, hi, 1);
  /* round order: t(j, i); rows = template dim 1 */
  int fm[2] = {split_rows ? XMPC_DIST_DUP : XMPC_DIST_BLOCK, split_rows ? XMPC_DIST_BLOCK : XMPC_DIST_DUP};
  long args[2] = {0, 0};
  xmpc_distribute(&L, t, p, fm, args, NULL);
  long ext[2] = {N, N}, sl[2] = {split_rows, !split_rows}, sh[2] = {split_rows, !split_rows};
  int al[2] = {1, 0};
  xmpc_array *a = xmpc_array_new(&L, t, 2, sizeof(double), ext, al, NULL);
  xmpc_array_shadow(&L, a, sl, sh, NULL);
  double *base = xmpc_array_alloc(&L, a);
  base[0] = 1;
  double tm[REPS];
  for (int r = -20; r < REPS; r++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    xmpc_reflect(&L, a, NULL, NULL, NULL, -1);
    double t1 = MPI_Wtime();
    if (r >= 0) tm[r] = t1 - t0;
  }
  return median(tm, REPS);
}

static double bench_mpi(int cols) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL, dn = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  long nloc = N / size;
  /* rows: (nloc+2) x N ; cols: N x (nloc+2) */
  double *u = calloc((nloc + 2) * N, sizeof(double));
  MPI_Datatype col;
  MPI_Type_vector(N, 1, nloc + 2, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  double tm[REPS];
  for (int r = -20; r < REPS; r++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (!cols) {
      MPI_Sendrecv(u + nloc * N, N, MPI_DOUBLE, up, 0, u, N, MPI_DOUBLE, dn, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Sendrecv(u + N, N, MPI_DOUBLE, dn, 1, u + (nloc + 1) * N, N, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    } else {
      MPI_Sendrecv(u + nloc, 1, col, up, 0, u, 1, col, dn, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Sendrecv(u + 1, 1, col, dn, 1, u + nloc + 1, 1, col, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    double t1 = MPI_Wtime();
    if (r >= 0) tm[r] = t1 - t0;
  }
  MPI_Type_free(&col);
  free(u);
  return median(tm, REPS);
}

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  long star = 0;
  xmpc_nodes *p = xmpc_nodes_new(&L, 1, &star);
  /* one untimed round first: on a busy machine the two spinning processes can
   * start on one core, and the first phase then measures the scheduler (ms). */
  bench_reflect(p, 1);
  bench_mpi(0);
  nmin = 0;
  double row = bench_reflect(p, 1), col = bench_reflect(p, 0);
  double mpi = bench_mpi(0), mpicol = bench_mpi(1);
  if (xmp_node_num() == 1)
    printf("halo %dx%d doubles, %d procs, median of %d (us): reflect row %.1f  reflect column %.1f  "
           "MPI_Sendrecv row %.1f  MPI_Sendrecv column(vector) %.1f  column/row %.2f\n",
           N, N, xmp_num_nodes(), REPS, row * 1e6, col * 1e6, mpi * 1e6, mpicol * 1e6, col / row);
  if (xmp_node_num() == 1)
    printf("RESULT %.2f %.2f %.2f %.2f\n", row * 1e6, col * 1e6, mpi * 1e6, mpicol * 1e6);
  if (xmp_node_num() == 1)
    printf("  minimum (us): reflect row %.1f  reflect column %.1f  MPI_Sendrecv row %.1f  column(vector) %.1f\n",
           mins[0] * 1e6, mins[1] * 1e6, mins[2] * 1e6, mins[3] * 1e6);
  return xmpc_finalize(0);
}
