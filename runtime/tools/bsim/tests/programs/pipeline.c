/* Rank 0 computes T, then a token travels 0 -> 1 -> ... -> n-1, each rank
 * computing c after receiving it: argv = T c bytes. */
#include <lmpi.h>
#include <stdio.h>
#include <stdlib.h>
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r, n;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm_size(LMPI_COMM_WORLD, &n);
    double T = atof(argv[1]), c = atof(argv[2]);
    int sz = atoi(argv[3]);
    char b[1];
    if (r == 0) {
        BSIM_Add_time(T);
        BSIM_Event("token start");
    } else {
        LMPI_Recv(b, sz, LMPI_BYTE, r - 1, 7, LMPI_COMM_WORLD, LMPI_STATUS_IGNORE);
        BSIM_Add_time(c);
    }
    if (r + 1 < n)
        LMPI_Send(b, sz, LMPI_BYTE, r + 1, 7, LMPI_COMM_WORLD);
    printf("rank %d %.17g\n", r, LMPI_Wtime());
    LMPI_Finalize();
    return 0;
}
