/* 2 ranks: some traffic, then every rank dies before MPI_Finalize
 * (argv[1]: "segv" = SIGSEGV, "abort" = abort()); the profiler must leave
 * per-rank partial profiles. */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int rank, i, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 3; i++) {
        if (rank == 0) MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        else MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (argc > 1 && strcmp(argv[1], "abort") == 0) abort();
    raise(SIGSEGV);
    MPI_Finalize();
    return 0;
}
