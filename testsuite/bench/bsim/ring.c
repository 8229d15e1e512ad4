/* HPCC-style randomly ordered ring: ranks are placed on a ring in a random
 * order (same seed everywhere); each iteration every rank exchanges a message
 * with both ring neighbours (Irecv x2, Isend x2, Waitall). argv: bytes iterations.
 * Every rank prints its end time; the script takes the latest. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    long bytes = atol(argv[1]);
    int it = atoi(argv[2]);
    int *perm = malloc(sizeof(int) * n), pos = 0;
    for (int i = 0; i < n; i++) perm[i] = i;
    unsigned long long s = 12345;
    for (int i = n - 1; i > 0; i--) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        int j = (int)((s >> 33) % (unsigned long long)(i + 1));
        int t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    }
    for (int i = 0; i < n; i++) if (perm[i] == r) pos = i;
    int left = perm[(pos + n - 1) % n], right = perm[(pos + 1) % n];
    char *sb = malloc(BUF_BYTES(2 * bytes)), *rb = malloc(BUF_BYTES(2 * bytes));
    for (int i = 0; i < it; i++) {
        MPI_Request q[4];
        MPI_Irecv(rb, bytes, MPI_BYTE, left, 0, MPI_COMM_WORLD, &q[0]);
        MPI_Irecv(rb + BUF_OFF(bytes), bytes, MPI_BYTE, right, 1, MPI_COMM_WORLD, &q[1]);
        MPI_Isend(sb, bytes, MPI_BYTE, right, 0, MPI_COMM_WORLD, &q[2]);
        MPI_Isend(sb + BUF_OFF(bytes), bytes, MPI_BYTE, left, 1, MPI_COMM_WORLD, &q[3]);
        MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
    }
    /* every rank prints its end time (a skeleton's reductions carry no data) */
    printf("time %.12e\n", MPI_Wtime());
    MPI_Finalize();
    return 0;
}
