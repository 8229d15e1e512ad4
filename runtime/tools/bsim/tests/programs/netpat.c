/* Communication patterns for the network-model tests: argv = pattern bytes iters.
   ring: compute 1 us, then shift to the right neighbour (Sendrecv), iters times.
   hot: every rank but 0 sends to rank 0 at once; rank 0 receives them all.
   alltoall / allreduce: the collective, iters times.
   rdvbar: rank 0 posts a receive from rank 1, enters a barrier, then waits for it;
   rank 1 computes 10 us, sends (bytes >= the eager threshold: rendezvous), enters the
   barrier. Rank 0 must answer the rendezvous while it waits in the barrier.
   Prints "rank R T" (T = LMPI_Wtime() at the end). */
#include <lmpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r, n;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm_size(LMPI_COMM_WORLD, &n);
    const char *pat = argv[1];
    long sz = atol(argv[2]);
    int it = atoi(argv[3]);
    char b[1];
    if (!strcmp(pat, "ring")) {
        for (int i = 0; i < it; i++) {
            BSIM_Add_time(1e-6);
            LMPI_Sendrecv(b, sz, LMPI_BYTE, (r + 1) % n, 0, b, sz, LMPI_BYTE, (r + n - 1) % n, 0, LMPI_COMM_WORLD,
                          LMPI_STATUS_IGNORE);
        }
    } else if (!strcmp(pat, "hot")) {
        if (r == 0) {
            int req[1024];
            for (int s = 1; s < n; s++)
                LMPI_Irecv(b, sz, LMPI_BYTE, s, 0, LMPI_COMM_WORLD, &req[s - 1]);
            LMPI_Waitall(n - 1, req, LMPI_STATUSES_IGNORE);
        } else {
            LMPI_Send(b, sz, LMPI_BYTE, 0, 0, LMPI_COMM_WORLD);
        }
    } else if (!strcmp(pat, "rdvbar")) {
        if (r == 0) {
            int q;
            LMPI_Irecv(b, sz, LMPI_BYTE, 1, 3, LMPI_COMM_WORLD, &q);
            LMPI_Barrier(LMPI_COMM_WORLD);
            LMPI_Wait(&q, LMPI_STATUS_IGNORE);
        } else if (r == 1) {
            BSIM_Add_time(1e-5);
            LMPI_Send(b, sz, LMPI_BYTE, 0, 3, LMPI_COMM_WORLD);
            LMPI_Barrier(LMPI_COMM_WORLD);
        } else {
            LMPI_Barrier(LMPI_COMM_WORLD);
        }
    } else if (!strcmp(pat, "alltoall")) {
        for (int i = 0; i < it; i++)
            LMPI_Alltoall(b, sz, LMPI_BYTE, b, sz, LMPI_BYTE, LMPI_COMM_WORLD);
    } else if (!strcmp(pat, "allreduce")) {
        for (int i = 0; i < it; i++)
            LMPI_Allreduce(b, b, sz, LMPI_BYTE, LMPI_MAX, LMPI_COMM_WORLD);
    }
    printf("rank %d %.17g\n", r, LMPI_Wtime());
    LMPI_Finalize();
    return 0;
}
