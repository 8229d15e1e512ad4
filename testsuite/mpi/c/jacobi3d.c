/* 3-D Jacobi (7-point stencil) on an NX x NY x NZ grid split into z-slabs, halo planes
 * exchanged with MPI_Irecv/MPI_Isend/MPI_Waitall. The grid size is fixed at compile
 * time (static arrays: the skeleton's memory cut removes them). Self-check: rank 0
 * reruns the iterations serially.  Usage: jacobi3d [iters] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 40
#endif
#define NX N
#define NY N
#define NZ N
#define PLANE ((NX + 2) * (NY + 2))

static double u[NZ + 2][NY + 2][NX + 2];
static double unew[NZ + 2][NY + 2][NX + 2];
static double ref[NZ + 2][NY + 2][NX + 2];
static double ref2[NZ + 2][NY + 2][NX + 2];

static double init(int k, int j, int i) {
    return (k == 0 || k == NZ + 1 || j == 0 || j == NY + 1 || i == 0 || i == NX + 1) ? 1.0 + 0.01 * i : 0.0;
}

int main(int argc, char **argv) {
    int iters = 20, rank, size, nz, first, lo, hi, it, i, j, k, nreq;
    double sum = 0.0, gsum, check, t0, t1, tc0, tcomp = 0.0;
    MPI_Request req[4];
    MPI_Status st[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) iters = atoi(argv[1]);
    lo = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    hi = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    nz = NZ / size + (rank < NZ % size ? 1 : 0);
    first = rank * (NZ / size) + (rank < NZ % size ? rank : NZ % size);
    /* Local slab: planes 1..nz of u hold global planes first+1..first+nz. */
    for (k = 0; k < nz + 2; k++)
        for (j = 0; j < NY + 2; j++)
            for (i = 0; i < NX + 2; i++) u[k][j][i] = unew[k][j][i] = init(first + k, j, i);

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (it = 0; it < iters; it++) {
        nreq = 0;
        MPI_Irecv(&u[0][0][0], PLANE, MPI_DOUBLE, lo, 0, MPI_COMM_WORLD, &req[nreq++]);
        MPI_Irecv(&u[nz + 1][0][0], PLANE, MPI_DOUBLE, hi, 1, MPI_COMM_WORLD, &req[nreq++]);
        MPI_Isend(&u[1][0][0], PLANE, MPI_DOUBLE, lo, 1, MPI_COMM_WORLD, &req[nreq++]);
        MPI_Isend(&u[nz][0][0], PLANE, MPI_DOUBLE, hi, 0, MPI_COMM_WORLD, &req[nreq++]);
        MPI_Waitall(nreq, req, st);
        tc0 = MPI_Wtime();
        for (k = 1; k <= nz; k++)
            for (j = 1; j <= NY; j++)
                for (i = 1; i <= NX; i++)
                    unew[k][j][i] = (u[k - 1][j][i] + u[k + 1][j][i] + u[k][j - 1][i] + u[k][j + 1][i] + u[k][j][i - 1] + u[k][j][i + 1]) / 6.0;
        for (k = 1; k <= nz; k++)
            for (j = 1; j <= NY; j++)
                for (i = 1; i <= NX; i++) u[k][j][i] = unew[k][j][i];
        tcomp += MPI_Wtime() - tc0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    t1 = MPI_Wtime();

    for (k = 1; k <= nz; k++)
        for (j = 1; j <= NY; j++)
            for (i = 1; i <= NX; i++) sum += u[k][j][i] * (first + k + 0.1 * j + 0.01 * i);
    MPI_Reduce(&sum, &gsum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        check = 0.0;
        for (k = 0; k < NZ + 2; k++)
            for (j = 0; j < NY + 2; j++)
                for (i = 0; i < NX + 2; i++) ref[k][j][i] = init(k, j, i);
        for (it = 0; it < iters; it++) {
            for (k = 1; k <= NZ; k++)
                for (j = 1; j <= NY; j++)
                    for (i = 1; i <= NX; i++)
                        ref2[k][j][i] = (ref[k - 1][j][i] + ref[k + 1][j][i] + ref[k][j - 1][i] + ref[k][j + 1][i] + ref[k][j][i - 1] + ref[k][j][i + 1]) / 6.0;
            for (k = 1; k <= NZ; k++)
                for (j = 1; j <= NY; j++)
                    for (i = 1; i <= NX; i++) ref[k][j][i] = ref2[k][j][i];
        }
        for (k = 1; k <= NZ; k++)
            for (j = 1; j <= NY; j++)
                for (i = 1; i <= NX; i++) check += ref[k][j][i] * (k + 0.1 * j + 0.01 * i);
        printf("jacobi3d n=%d iters=%d np=%d checksum=%.10e serial=%.10e\n", N, iters, size, gsum, check);
        printf("%s\n", fabs(gsum - check) <= 1e-9 * fabs(check) ? "CHECK OK" : "CHECK FAILED");
    }
#pragma bsim keep
    if (rank == 0) printf("time_s=%.6f compute_s=%.6f\n", t1 - t0, tcomp);
    MPI_Finalize();
    return 0;
}
