/* NPB-like C program for the skeleton wrappers (tests/skeleton_cli.rs).
 * Causes of issue 38 it reproduces: parameters broadcast from rank 0 decide the
 * loop and the message size (5: the Bcasts must carry their data); a hot loop
 * whose result decides the peer is kept in the skeleton and must be charged its
 * host time (1); timer_stop() of timers.c, another file with compute blocks of
 * its own, is called inside a compute block of this file (4).
 * Usage: params N ITERS. Prints CHECK OK on every rank when each received
 * value is its left neighbour's. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

void timer_start(int n);
void timer_stop(int n);
double timer_read(int n);

int main(int argc, char **argv) {
    int rank, np, n = 0, iters = 0, ok = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (rank == 0) {
        n = atoi(argv[1]);
        iters = atoi(argv[2]);
    }
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
    double *a, *b;
    a = malloc(n * sizeof *a);
    b = malloc(n * sizeof *b);
    for (int it = 0; it < iters; it++) {
        long h = 0;
        for (long i = 0; i < (long)n * 2000; i++)
            h = (h * 31 + i) % 1000003;
        int right = (rank + 1 + np * (int)(h % 2)) % np;
        int left = (rank + np - 1) % np;
        for (int i = 0; i < n; i++)
            a[i] = rank + it + i;
        timer_start(1);
        MPI_Sendrecv(a, n, MPI_DOUBLE, right, 0, b, n, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        timer_stop(1);
        ok = ok && b[0] == left + it && b[n - 1] == left + it + n - 1;
    }
    printf("rank %d %s (%.0f)\n", rank, ok ? "CHECK OK" : "CHECK FAILED", timer_read(1) >= 0 ? 1.0 : 0.0);
    MPI_Finalize();
    return 0;
}
