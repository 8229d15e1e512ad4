/* Exact-accounting test program for xmpc-prof (4 ranks).
 * Every call here is mirrored by an expectation in tests/exact.rs. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const long SIZES[] = {0, 1, 2, 3, 1024, 1 << 20, (8 << 20) - 1, 8 << 20, 16 << 20};
#define NSIZES 9

int main(int argc, char **argv) {
    int rank, size, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        if (rank == 0) fprintf(stderr, "exact: needs 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char *big = calloc(16 << 20, 1);
    double dbl[1024];
    memset(dbl, 0, sizeof dbl);

    /* 0 -> 1: 9 sizes as MPI_BYTE, then 1024 doubles */
    if (rank == 0) {
        for (i = 0; i < NSIZES; i++) MPI_Send(big, (int)SIZES[i], MPI_BYTE, 1, 10 + i, MPI_COMM_WORLD);
        MPI_Send(dbl, 1024, MPI_DOUBLE, 1, 99, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Status st;
        for (i = 0; i < NSIZES; i++) {
            if (i < 5)
                MPI_Recv(big, 16 << 20, MPI_BYTE, 0, 10 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            else if (i < 7)
                MPI_Recv(big, 16 << 20, MPI_BYTE, MPI_ANY_SOURCE, 10 + i, MPI_COMM_WORLD, &st);
            else
                MPI_Recv(big, 16 << 20, MPI_BYTE, 0, 10 + i, MPI_COMM_WORLD, &st);
        }
        MPI_Recv(dbl, 1024, MPI_DOUBLE, 0, 99, MPI_COMM_WORLD, &st);
    }

    /* 2 -> 3: 3 x Isend of 100 ints; 3 posts 2 Irecv from 2 and 1 from ANY */
    if (rank == 2) {
        int b[3][100];
        MPI_Request rq[3];
        memset(b, 0, sizeof b);
        for (i = 0; i < 3; i++) MPI_Isend(b[i], 100, MPI_INT, 3, 5, MPI_COMM_WORLD, &rq[i]);
        MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
    } else if (rank == 3) {
        int b[3][100];
        MPI_Request rq[3];
        MPI_Irecv(b[0], 100, MPI_INT, 2, 5, MPI_COMM_WORLD, &rq[0]);
        MPI_Irecv(b[1], 100, MPI_INT, 2, 5, MPI_COMM_WORLD, &rq[1]);
        MPI_Irecv(b[2], 100, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &rq[2]);
        MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
    }

    /* ring: 64 B to r+1, from r-1 */
    {
        char s[64] = {0}, r[64];
        MPI_Sendrecv(s, 64, MPI_BYTE, (rank + 1) % 4, 7, r, 64, MPI_BYTE, (rank + 3) % 4, 7, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }

    /* sub-communicator with reversed order: color r%2, key -r.
     * even: {2 -> sub 0, 0 -> sub 1}; odd: {3 -> sub 0, 1 -> sub 1}.
     * sub 0 sends 256 B to sub 1: world 2 -> 0, world 3 -> 1. */
    {
        MPI_Comm sub;
        int sr;
        char b[256] = {0};
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &sub);
        PMPI_Comm_rank(sub, &sr); /* PMPI: not profiled */
        if (sr == 0)
            MPI_Send(b, 256, MPI_BYTE, 1, 3, sub);
        else
            MPI_Recv(b, 256, MPI_BYTE, 0, 3, sub, MPI_STATUS_IGNORE);
        MPI_Comm_free(&sub);
    }

    /* collectives */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(big, 1000, MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Reduce(dbl, dbl + 10, 10, MPI_DOUBLE, MPI_SUM, 1, MPI_COMM_WORLD);
    for (i = 0; i < 3; i++) {
        int a = 1, b;
        MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    {
        char s[16] = {0}, r[64];
        MPI_Gather(s, 8, MPI_BYTE, r, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
        MPI_Allgather(s, 16, MPI_BYTE, r, 16, MPI_BYTE, MPI_COMM_WORLD);
    }
    {
        int s[16] = {0}, r[16];
        MPI_Alltoall(s, 4, MPI_INT, r, 4, MPI_INT, MPI_COMM_WORLD);
    }
    {
        char s[4] = {0}, r[10];
        int rc[4] = {1, 2, 3, 4}, d[4] = {0, 1, 3, 6};
        MPI_Allgatherv(s, rank + 1, MPI_BYTE, r, rc, d, MPI_BYTE, MPI_COMM_WORLD);
    }
    {
        int s[10] = {0}, r[16];
        int sc[4] = {1, 2, 3, 4}, sd[4] = {0, 1, 3, 6};
        int rc[4], rd[4];
        for (i = 0; i < 4; i++) {
            rc[i] = rank + 1;
            rd[i] = i * (rank + 1);
        }
        MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, MPI_COMM_WORLD);
    }
    {
        char s[128] = {0}, r[32];
        MPI_Scatter(s, 32, MPI_BYTE, r, 32, MPI_BYTE, 2, MPI_COMM_WORLD);
    }
    for (i = 0; i < 5; i++) (void)MPI_Wtime();
    for (i = 0; i < 1000; i++) MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    free(big);
    MPI_Finalize();
    return 0;
}
