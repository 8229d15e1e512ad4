/* 2-D Jacobi (Laplace, fixed boundary) on an n x n grid, rows split over the ranks,
 * halo rows exchanged with MPI_Sendrecv every iteration, a global residual every 10
 * iterations (MPI_Allreduce). Self-check: rank 0 reruns the same iterations serially
 * and compares the checksums.  Usage: jacobi2d [n [iters]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

static double boundary(int i, int j, int n) {
    return (i == 0 || j == 0) ? 0.0 : (i == n + 1 ? 1.0 : (j == n + 1 ? 0.5 : 0.0));
}

int main(int argc, char **argv) {
    int n = 64, iters = 100, rank, size, rows, first, up, down, it, i, j, w;
    double *u, *unew, *tmp, local, resid = 0.0, sum, gsum, t0, t1, tc0, tcomp = 0.0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) n = atoi(argv[1]);
    if (argc > 2) iters = atoi(argv[2]);
    w = n + 2;
    up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

    rows = n / size + (rank < n % size ? 1 : 0);
    first = rank * (n / size) + (rank < n % size ? rank : n % size);
    u = malloc(sizeof(double) * (rows + 2) * w);
    unew = malloc(sizeof(double) * (rows + 2) * w);
    for (i = 0; i < rows + 2; i++)
        for (j = 0; j < w; j++) {
            u[i * w + j] = boundary(first + i, j, n);
            unew[i * w + j] = u[i * w + j];
        }

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (it = 0; it < iters; it++) {
        MPI_Sendrecv(&u[1 * w], w, MPI_DOUBLE, up, 0, &u[(rows + 1) * w], w, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[rows * w], w, MPI_DOUBLE, down, 1, &u[0], w, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        tc0 = MPI_Wtime();
        local = 0.0;
        for (i = 1; i <= rows; i++)
            for (j = 1; j <= n; j++) {
                unew[i * w + j] = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] + u[i * w + j + 1]);
                local += fabs(unew[i * w + j] - u[i * w + j]);
            }
        tmp = u;
        u = unew;
        unew = tmp;
        tcomp += MPI_Wtime() - tc0;
        if (it % 10 == 9)
            MPI_Allreduce(&local, &resid, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    t1 = MPI_Wtime();

    sum = 0.0;
    for (i = 1; i <= rows; i++)
        for (j = 1; j <= n; j++) sum += u[i * w + j] * (first + i + 0.5 * j);
    MPI_Reduce(&sum, &gsum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        /* Serial rerun of the same iterations: an independent check of the decomposition. */
        double *a = malloc(sizeof(double) * w * w), *b = malloc(sizeof(double) * w * w), *c, ref = 0.0;
        for (i = 0; i < w; i++)
            for (j = 0; j < w; j++) a[i * w + j] = b[i * w + j] = boundary(i, j, n);
        for (it = 0; it < iters; it++) {
            for (i = 1; i <= n; i++)
                for (j = 1; j <= n; j++) b[i * w + j] = 0.25 * (a[(i - 1) * w + j] + a[(i + 1) * w + j] + a[i * w + j - 1] + a[i * w + j + 1]);
            c = a; a = b; b = c;
        }
        for (i = 1; i <= n; i++)
            for (j = 1; j <= n; j++) ref += a[i * w + j] * (i + 0.5 * j);
        printf("jacobi2d n=%d iters=%d np=%d checksum=%.10e serial=%.10e resid=%.6e\n", n, iters, size, gsum, ref, resid);
        printf("%s\n", fabs(gsum - ref) <= 1e-9 * fabs(ref) ? "CHECK OK" : "CHECK FAILED");
        free(a);
        free(b);
    }
#pragma bsim keep
    if (rank == 0) printf("time_s=%.6f compute_s=%.6f\n", t1 - t0, tcomp);
    free(u);
    free(unew);
    MPI_Finalize();
    return 0;
}
