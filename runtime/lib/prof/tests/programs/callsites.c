/* Two MPI_Send call sites on known lines (tests/exact.rs: callsites).
 * Rank 0 sends 3 messages from the first site and 5 from the second to rank 1. */
#include <mpi.h>

static void first(int *buf) {
    MPI_Send(buf, 4, MPI_INT, 1, 1, MPI_COMM_WORLD); /* LINE_A */
}

static void second(int *buf) {
    MPI_Send(buf, 16, MPI_INT, 1, 2, MPI_COMM_WORLD); /* LINE_B */
}

int main(int argc, char **argv) {
    int rank, buf[16] = {0}, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (i = 0; i < 3; i++) first(buf);
        for (i = 0; i < 5; i++) second(buf);
    } else if (rank == 1) {
        for (i = 0; i < 8; i++) MPI_Recv(buf, 16, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
