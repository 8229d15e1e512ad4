/* An MGEN ring: every rank passes `bytes` to its right neighbour `iters` times. */
#include <stdio.h>
#include <stdlib.h>
#include "mgen.h"

int MGEN_Main(int argc, char **argv) {
    int rank, size, i;
    int iters = argc > 1 ? atoi(argv[1]) : 10;
    int bytes = argc > 2 ? atoi(argv[2]) : 1024;
    char buf[16];
    MGEN_Request req[2];
    MGEN_Status st;
    MGEN_Init(&argc, &argv);
    MGEN_Comm_rank(MGEN_COMM_WORLD, &rank);
    MGEN_Comm_size(MGEN_COMM_WORLD, &size);
    for (i = 0; i < iters; i++) {
        MGEN_Irecv(buf, bytes, MGEN_BYTE, (rank + size - 1) % size, 7, MGEN_COMM_WORLD, &req[0]);
        MGEN_Isend(buf, bytes, MGEN_BYTE, (rank + 1) % size, 7, MGEN_COMM_WORLD, &req[1]);
        MGEN_Waitall(2, req, MGEN_STATUSES_IGNORE);
    }
    if (rank == 0) printf("ring time %.0f ps\n", MGEN_Wtime() * 1e12);
    /* any-source receive reports the sender */
    if (rank == 1) {
        MGEN_Recv(buf, 4, MGEN_INT, MGEN_ANY_SOURCE, MGEN_ANY_TAG, MGEN_COMM_WORLD, &st);
        printf("any-source from %d tag %d\n", st.MGEN_SOURCE, st.MGEN_TAG);
    } else if (rank == size - 1) {
        MGEN_Send(buf, 4, MGEN_INT, 1, 42, MGEN_COMM_WORLD);
    }
    MGEN_Barrier(MGEN_COMM_WORLD);
    MGEN_Bcast(buf, 1000, MGEN_BYTE, 0, MGEN_COMM_WORLD);
    MGEN_Allreduce(buf, buf, 8, MGEN_DOUBLE, MGEN_SUM, MGEN_COMM_WORLD);
    if (size <= 64) { /* p - 1 steps each: keep big runs short */
        MGEN_Alltoall(buf, 4, MGEN_BYTE, buf, 4, MGEN_BYTE, MGEN_COMM_WORLD);
        MGEN_Allgather(buf, 4, MGEN_BYTE, buf, 4, MGEN_BYTE, MGEN_COMM_WORLD);
    }
    MGEN_Reduce(buf, buf, 8, MGEN_DOUBLE, MGEN_SUM, 0, MGEN_COMM_WORLD);
    MGEN_Compute(1e-6);
    if (rank == 0) printf("done %d\n", size);
    MGEN_Finalize();
    return 0;
}
