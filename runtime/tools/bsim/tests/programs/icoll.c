/* A nonblocking collective (argv[1]) of argv[2] bytes overlapped with argv[3]
 * seconds of compute, then Wait. Prints every rank's time. */
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
    char *s = malloc(b * n + 1), *d = malloc(b * n + 1);
    LMPI_Request q;
    const char *op = argv[1];
    if (!strcmp(op, "iallreduce")) LMPI_Iallreduce(s, d, b, LMPI_BYTE, LMPI_SUM, LMPI_COMM_WORLD, &q);
    else if (!strcmp(op, "ibarrier")) LMPI_Ibarrier(LMPI_COMM_WORLD, &q);
    else if (!strcmp(op, "ibcast")) LMPI_Ibcast(s, b, LMPI_BYTE, 0, LMPI_COMM_WORLD, &q);
    else if (!strcmp(op, "ireduce")) LMPI_Ireduce(s, d, b, LMPI_BYTE, LMPI_SUM, 0, LMPI_COMM_WORLD, &q);
    else if (!strcmp(op, "iallgather")) LMPI_Iallgather(s, b, LMPI_BYTE, d, b, LMPI_BYTE, LMPI_COMM_WORLD, &q);
    else LMPI_Ialltoall(s, b, LMPI_BYTE, d, b, LMPI_BYTE, LMPI_COMM_WORLD, &q);
    double t0 = LMPI_Wtime();
    BSIM_Add_time(atof(argv[3]));
    LMPI_Wait(&q, LMPI_STATUS_IGNORE);
    if (t0 != 0.0 || q != LMPI_REQUEST_NULL) return 1;
    printf("rank %d %.17g\n", r, LMPI_Wtime());
    LMPI_Finalize();
    return 0;
}
