/* 2 ranks: many MPI_Comm_rank (must be flagged unreliable), 1 MiB sends
 * (must not be), MPI_Wtime excluded by the test's config file. */
#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int rank, i;
    char *b = calloc(1 << 20, 1);
    MPI_Init(&argc, &argv);
    for (i = 0; i < 2000; i++) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 10; i++) (void)MPI_Wtime();
    for (i = 0; i < 20; i++) {
        if (rank == 0) MPI_Send(b, 1 << 20, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        else MPI_Recv(b, 1 << 20, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    free(b);
    return 0;
}
