/* The same halo exchange written by hand (the paper's "hand-coding"): rows
 * block-distributed, one halo row each side, MPI persistent requests set up once
 * (MPI_Send_init/MPI_Recv_init), then ITER timed MPI_Startall + MPI_Waitall. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#ifndef NX
#define NX 8192
#endif
#ifndef NY
#define NY 512
#endif
#ifndef ITER
#define ITER 1000
#endif

int main(int argc, char **argv)
{
    int rank, size, i, j, k, nreq = 0;
    MPI_Request req[4];
    MPI_Status st[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int chunk = (NY + size - 1) / size;
    int lo = rank * chunk, hi = lo + chunk - 1 < NY - 1 ? lo + chunk - 1 : NY - 1;
    int n = hi - lo + 1;
    /* rows lo-1 .. hi+1 */
    double *u = aligned_alloc(64, sizeof(double) * (size_t)(n + 2) * NX);
    for (j = 0; j < n + 2; j++)
        for (i = 0; i < NX; i++)
            u[(size_t)j * NX + i] = (j >= 1 && j <= n) ? (lo + j - 1) + 1e-4 * i : 0.0;
    if (rank > 0) {
        MPI_Recv_init(u, NX, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD, &req[nreq++]);
        MPI_Send_init(u + NX, NX, MPI_DOUBLE, rank - 1, 1, MPI_COMM_WORLD, &req[nreq++]);
    }
    if (rank < size - 1) {
        MPI_Recv_init(u + (size_t)(n + 1) * NX, NX, MPI_DOUBLE, rank + 1, 1, MPI_COMM_WORLD, &req[nreq++]);
        MPI_Send_init(u + (size_t)n * NX, NX, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD, &req[nreq++]);
    }
    for (k = 0; k < ITER / 10; k++) {
        MPI_Startall(nreq, req);
        MPI_Waitall(nreq, req, st);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (k = 0; k < ITER; k++) {
        MPI_Startall(nreq, req);
        MPI_Waitall(nreq, req, st);
    }
    double dt = (MPI_Wtime() - t0) / ITER * 1e6, mx, chk = 0.0, all;
    MPI_Reduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    for (j = 1; j <= n; j++) {
        int g = lo + j - 1;
        if (g >= 1 && g <= NY - 2)
            chk += u[(size_t)(j - 1) * NX + 7] + u[(size_t)(j + 1) * NX + NX - 1];
    }
    MPI_Reduce(&chk, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("hand-written reflect: %.2f us  checksum %.6f\n", mx, all);
    for (k = 0; k < nreq; k++)
        MPI_Request_free(&req[k]);
    free(u);
    MPI_Finalize();
    return 0;
}
