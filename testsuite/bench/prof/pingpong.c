/* 0-byte ping-pong between ranks 0 and 1 for the xmpc-prof overhead
 * benchmark. Alternates blocks that call PMPI_Send/PMPI_Recv (never
 * profiled) with blocks that call MPI_Send/MPI_Recv (profiled when
 * libxmpc_prof is preloaded or linked), so both modes are measured in the
 * same processes under the same conditions.
 * Output (rank 0), one line per block: "<mode> <ns per half round trip>". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double block(int rank, int iters, int profiled) {
    char c = 0;
    int i;
    PMPI_Barrier(MPI_COMM_WORLD);
    double t0 = PMPI_Wtime();
    if (profiled) {
        for (i = 0; i < iters; i++) {
            if (rank == 0) {
                MPI_Send(&c, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(&c, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(&c, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(&c, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
    } else {
        for (i = 0; i < iters; i++) {
            if (rank == 0) {
                PMPI_Send(&c, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                PMPI_Recv(&c, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                PMPI_Recv(&c, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                PMPI_Send(&c, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
    }
    return (PMPI_Wtime() - t0) * 1e9 / (2.0 * iters);
}

int main(int argc, char **argv) {
    int rank, b;
    int iters = argc > 1 ? atoi(argv[1]) : 20000;
    int blocks = argc > 2 ? atoi(argv[2]) : 10;
    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    block(rank, iters, 0); /* warm-up */
    block(rank, iters, 1);
    for (b = 0; b < blocks; b++) {
        double p = block(rank, iters, 0);
        double m = block(rank, iters, 1);
        if (rank == 0) printf("pmpi %.2f\nmpi %.2f\n", p, m);
    }
    MPI_Finalize();
    return 0;
}
