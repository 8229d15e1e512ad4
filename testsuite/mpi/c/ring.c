/* A ring: a message of `len` doubles travels around the ranks `loops` times; each rank
 * does some work on it, then adds rank+1 to its first element and passes it on.
 * Self-check: after the loops the first element is loops * P(P+1)/2.
 * Usage: ring [len [loops [work]]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(int argc, char **argv) {
    int len = 1000, loops = 10, work = 20000, rank, size, next, prev, l, k;
    double *msg, acc = 0.0, expect;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) len = atoi(argv[1]);
    if (argc > 2) loops = atoi(argv[2]);
    if (argc > 3) work = atoi(argv[3]);
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    msg = calloc(len, sizeof(double));
    for (l = 0; l < loops; l++) {
        if (rank != 0 || l > 0)
            MPI_Recv(msg, len, MPI_DOUBLE, prev, l, MPI_COMM_WORLD, &st);
        for (k = 1; k <= work; k++) acc += sin(k * 1e-3) * msg[k % len];
        msg[0] += rank + 1;
        MPI_Send(msg, len, MPI_DOUBLE, next, rank == size - 1 ? l + 1 : l, MPI_COMM_WORLD);
    }
    if (rank == 0) {
        MPI_Recv(msg, len, MPI_DOUBLE, prev, loops, MPI_COMM_WORLD, &st);
        expect = loops * size * (size + 1) / 2.0;
        printf("ring np=%d loops=%d value=%.1f expected=%.1f acc=%.3e\n", size, loops, msg[0], expect, acc);
        printf("%s\n", msg[0] == expect ? "CHECK OK" : "CHECK FAILED");
    }
    free(msg);
    MPI_Finalize();
    return 0;
}
