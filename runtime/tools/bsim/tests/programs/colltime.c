/* One collective, chosen by argv[1], with argv[2] bytes; rank 3 arrives late
 * by argv[3] seconds. Prints every rank's exit time. */
#include <lmpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r, n;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm_size(LMPI_COMM_WORLD, &n);
    int b = atoi(argv[2]);
    if (r == 3) BSIM_Add_time(atof(argv[3]));
    char s[1], d[1];
    const char *op = argv[1];
    if (!strcmp(op, "barrier")) LMPI_Barrier(LMPI_COMM_WORLD);
    else if (!strcmp(op, "bcast")) LMPI_Bcast(s, b, LMPI_BYTE, 0, LMPI_COMM_WORLD);
    else if (!strcmp(op, "allreduce")) LMPI_Allreduce(s, d, b, LMPI_BYTE, LMPI_SUM, LMPI_COMM_WORLD);
    else if (!strcmp(op, "alltoall")) LMPI_Alltoall(s, b, LMPI_BYTE, d, b, LMPI_BYTE, LMPI_COMM_WORLD);
    else if (!strcmp(op, "allgather")) LMPI_Allgather(s, b, LMPI_BYTE, d, b, LMPI_BYTE, LMPI_COMM_WORLD);
    printf("rank %d %.17g\n", r, LMPI_Wtime());
    LMPI_Finalize();
    return 0;
}
