/* Misuse BSIM must report (argv[1] picks the case), each at 2 ranks:
 *   poll      rank 0 polls LMPI_Test on a receive rank 1 never sends (rank 1 ends)
 *   iprobe    rank 0 polls LMPI_Iprobe; rank 1 waits in LMPI_Recv for rank 0
 *   root      LMPI_Bcast with a different root on each rank
 *   count     LMPI_Allreduce with a different count on each rank
 *   type      LMPI_Alltoall with MPI_INT on rank 0, MPI_DOUBLE on rank 1
 *   wait      a deadlock in LMPI_Wait (both ranks receive first)
 *   pollsend  rank 0 polls 50 times, then sends what rank 1 waits for (no deadlock) */
#include <lmpi.h>
#include <stdio.h>
#include <string.h>

int bsim_main(int argc, char **argv) {
    int r, flag = 0, x = 0, y[4];
    double d[4];
    LMPI_Request q;
    LMPI_Init(&argc, &argv);
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    const char *c = argc > 1 ? argv[1] : "";
    if (!strcmp(c, "poll")) {
        if (r == 0) {
            LMPI_Irecv(&x, 1, LMPI_INT, 1, 7, LMPI_COMM_WORLD, &q);
            while (!flag) LMPI_Test(&q, &flag, LMPI_STATUS_IGNORE);
        }
    } else if (!strcmp(c, "iprobe")) {
        if (r == 0) {
            while (!flag) LMPI_Iprobe(1, 3, LMPI_COMM_WORLD, &flag, LMPI_STATUS_IGNORE);
        } else {
            LMPI_Recv(&x, 1, LMPI_INT, 0, 5, LMPI_COMM_WORLD, LMPI_STATUS_IGNORE);
        }
    } else if (!strcmp(c, "pollsend")) {
        if (r == 0) {
            for (int i = 0; i < 50; i++) LMPI_Iprobe(1, 3, LMPI_COMM_WORLD, &flag, LMPI_STATUS_IGNORE);
            LMPI_Send(&x, 1, LMPI_INT, 1, 5, LMPI_COMM_WORLD);
        } else {
            LMPI_Recv(&x, 1, LMPI_INT, 0, 5, LMPI_COMM_WORLD, LMPI_STATUS_IGNORE);
        }
        printf("pollsend ok %d\n", r);
    } else if (!strcmp(c, "root")) {
        LMPI_Bcast(&x, 1, LMPI_INT, r, LMPI_COMM_WORLD);
    } else if (!strcmp(c, "count")) {
        LMPI_Allreduce(y, y, r + 1, LMPI_INT, LMPI_SUM, LMPI_COMM_WORLD);
    } else if (!strcmp(c, "type")) {
        LMPI_Alltoall(d, 1, r ? LMPI_DOUBLE : LMPI_INT, d, 1, r ? LMPI_DOUBLE : LMPI_INT, LMPI_COMM_WORLD);
    } else if (!strcmp(c, "wait")) {
        LMPI_Irecv(&x, 1, LMPI_INT, 1 - r, 0, LMPI_COMM_WORLD, &q);
        LMPI_Wait(&q, LMPI_STATUS_IGNORE);
    }
    LMPI_Finalize();
    return 0;
}
