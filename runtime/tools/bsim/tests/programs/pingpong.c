/* Ping-pong between ranks 0 and 1: argv = bytes iterations. */
#include <lmpi.h>
#include <stdio.h>
#include <stdlib.h>
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    long sz = atol(argv[1]);
    int it = atoi(argv[2]);
    char b[1];
    for (int i = 0; i < it; i++) {
        if (r == 0) {
            LMPI_Send(b, sz, LMPI_BYTE, 1, 0, LMPI_COMM_WORLD);
            LMPI_Recv(b, sz, LMPI_BYTE, 1, 0, LMPI_COMM_WORLD, LMPI_STATUS_IGNORE);
        } else if (r == 1) {
            LMPI_Recv(b, sz, LMPI_BYTE, 0, 0, LMPI_COMM_WORLD, LMPI_STATUS_IGNORE);
            LMPI_Send(b, sz, LMPI_BYTE, 0, 0, LMPI_COMM_WORLD);
        }
    }
    if (r == 0)
        printf("time %.17g\n", LMPI_Wtime());
    LMPI_Finalize();
    return 0;
}
