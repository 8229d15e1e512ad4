/* Hand-written MPI-3 one-sided side of testsuite/bench/local/fortran.sh (2 processes):
 * the same transfers as caf_bench.f90, each a put or get completed by
 * MPI_Win_flush (what a coindexed statement must guarantee), MPI_Allreduce for
 * co_sum, sync all as MPI_Win_flush_all + MPI_Barrier + MPI_Win_sync, and the halo
 * as two puts + MPI_Win_flush_all + MPI_Barrier (sync all).
 * This is the floor of a libcaf written over MPI-3 windows. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BIG 131072
#define NX 1024
#define NY 256

static int me, np;

static void report(const char *name, double t, int reps) {
  if (me == 0) printf("%s %12.3f\n", name, 1e6 * t / reps);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  double *b, *s8, *u;
  MPI_Win wb, ws, wu;
  MPI_Win_allocate(BIG * 8, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &b, &wb);
  MPI_Win_allocate(64, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &s8, &ws);
  MPI_Win_allocate((size_t)NX * (NY + 2) * 8, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &u, &wu);
  MPI_Win_lock_all(0, wb);
  MPI_Win_lock_all(0, ws);
  MPI_Win_lock_all(0, wu);
  double *loc = calloc(BIG, 8);
  for (int i = 0; i < BIG; i++) loc[i] = 7;
  for (int i = 0; i < BIG; i++) b[i] = me + 1;
  s8[0] = me + 1;
  for (long i = 0; i < (long)NX * (NY + 2); i++) u[i] = me + 1;
  MPI_Win_sync(wb);
  MPI_Win_sync(ws);
  MPI_Win_sync(wu);
  MPI_Barrier(MPI_COMM_WORLD);
  struct { const char *name; int n, reps, get; } cases[] = {
      {"put_8B", 1, 20000, 0}, {"put_1MiB", BIG, 200, 0}, {"get_8B", 1, 20000, 1}, {"get_1MiB", BIG, 200, 1}};
  for (int c = 0; c < 4; c++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (me == 0) {
      MPI_Win w = cases[c].n == 1 ? ws : wb;
      for (int k = 0; k < cases[c].reps; k++) {
        if (cases[c].get)
          MPI_Get(loc, cases[c].n, MPI_DOUBLE, 1, 0, cases[c].n, MPI_DOUBLE, w);
        else
          MPI_Put(loc, cases[c].n, MPI_DOUBLE, 1, 0, cases[c].n, MPI_DOUBLE, w);
        MPI_Win_flush(1, w);
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime() - t0; /* the closing barrier is timed, as caf_bench's sync all */
    report(cases[c].name, t, cases[c].reps);
  }
  int reps = 20000;
  MPI_Barrier(MPI_COMM_WORLD);
  double x = 0, t0 = MPI_Wtime();
  for (int k = 1; k <= reps; k++) {
    double v = k;
    MPI_Allreduce(&v, &x, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  report("co_sum_8B", MPI_Wtime() - t0, reps);
  if (x != (double)reps * np) MPI_Abort(MPI_COMM_WORLD, 2);
  reps = 2000;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (int k = 0; k < reps; k++) {
    MPI_Win_flush_all(wu);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(wu);
  }
  report("sync_all", MPI_Wtime() - t0, reps);
  int right = (me + 1) % np, left = (me - 1 + np) % np;
  reps = 500;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (int k = 0; k < reps; k++) {
    /* column j of u(NX, 0:NY+1) starts at j*NX */
    MPI_Put(u + (size_t)NY * NX, NX, MPI_DOUBLE, right, 0, NX, MPI_DOUBLE, wu);
    MPI_Put(u + (size_t)1 * NX, NX, MPI_DOUBLE, left, (MPI_Aint)(NY + 1) * NX, NX, MPI_DOUBLE, wu);
    MPI_Win_flush_all(wu);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(wu);
  }
  report("halo_2x8KiB", MPI_Wtime() - t0, reps);
  if (u[0] != left + 1) MPI_Abort(MPI_COMM_WORLD, 3);
  MPI_Win_unlock_all(wb);
  MPI_Win_unlock_all(ws);
  MPI_Win_unlock_all(wu);
  MPI_Win_free(&wb);
  MPI_Win_free(&ws);
  MPI_Win_free(&wu);
  free(loc);
  MPI_Finalize();
  return 0;
}
