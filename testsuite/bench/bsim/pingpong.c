/* Ping-pong between ranks 0 and 1 (MPI; the BSIM side is this file with MPI_
 * renamed LMPI_ and main renamed bsim_main). argv: bytes iterations. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    long n = atol(argv[1]);
    int it = atoi(argv[2]);
    char *b = malloc(BUF_BYTES(n));
    for (int i = 0; i < it; i++) {
        if (r == 0) {
            MPI_Send(b, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(b, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (r == 1) {
            MPI_Recv(b, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(b, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
    if (r == 0) printf("time %.12e\n", MPI_Wtime());
    MPI_Finalize();
    return 0;
}
