/* All-to-all: every rank sends `bytes` to every rank, `it` times, with a compute
 * block of 1 us before each (MPI; the BSIM side is this file with MPI_ renamed
 * LMPI_ and main renamed bsim_main, as for the other programs here).
 * argv: bytes iterations. Every rank prints its end time; the script takes the latest. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    long bytes = atol(argv[1]);
    int it = atoi(argv[2]);
    char *sb = malloc(BUF_BYTES(bytes * n)), *rb = malloc(BUF_BYTES(bytes * n));
    for (int i = 0; i < it; i++) {
        ADD_TIME(1e-6);
        MPI_Alltoall(sb, bytes, MPI_BYTE, rb, bytes, MPI_BYTE, MPI_COMM_WORLD);
    }
    printf("time %.12e\n", MPI_Wtime());
    MPI_Finalize();
    return 0;
}
