/* HPCC-style random ring: exchange BYTES with both ring neighbours, LOOPS times. */
#include <mpi.h>
#include <stdio.h>
#include "common.h"
int main(int argc, char **argv) {
    int rank, p;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    long bytes = argc > 1 ? parse_size(argv[1]) : 1 << 20;
    int loops = argc > 2 ? atoi(argv[2]) : 5;
    int *perm = malloc(sizeof(int) * p), pos = 0;
    random_perm(perm, p, 1);
    for (int i = 0; i < p; i++) if (perm[i] == rank) pos = i;
    int left = perm[(pos + p - 1) % p], right = perm[(pos + 1) % p];
    char *sb = SMPI_SHARED_MALLOC(bytes), *rb = SMPI_SHARED_MALLOC(bytes);
    MPI_Request rq[4];
    double t0 = MPI_Wtime();
    for (int l = 0; l < loops; l++) {
        MPI_Irecv(rb, bytes, MPI_BYTE, left, 0, MPI_COMM_WORLD, &rq[0]);
        MPI_Irecv(rb, bytes, MPI_BYTE, right, 1, MPI_COMM_WORLD, &rq[1]);
        MPI_Isend(sb, bytes, MPI_BYTE, right, 0, MPI_COMM_WORLD, &rq[2]);
        MPI_Isend(sb, bytes, MPI_BYTE, left, 1, MPI_COMM_WORLD, &rq[3]);
        MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    }
    double t = MPI_Wtime() - t0, mx;
    MPI_Reduce(&t, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("predicted_ms=%.6f\n", mx * 1e3);
    MPI_Finalize();
    return 0;
}
