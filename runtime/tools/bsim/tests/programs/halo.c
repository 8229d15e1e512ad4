/* 2-D periodic halo exchange: argv = iterations compute_seconds bytes.
 * Each iteration computes, exchanges with 4 neighbours (Irecv/Isend/Waitall);
 * one Allreduce of a double at the end. Prints the rank's end time. */
#include <lmpi.h>
#include <stdio.h>
#include <stdlib.h>
BSIM_RANK_VAR static double residual;
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r, n;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm_size(LMPI_COMM_WORLD, &n);
    int it = atoi(argv[1]);
    double c = atof(argv[2]);
    int sz = atoi(argv[3]);
    int px = 1;
    while (px * px < n) px *= 2;
    if (px * px != n) px = n / px > px ? px * 2 : px;
    int py = n / px;
    int x = r % px, y = r / px;
    int nb[4] = {((x + px - 1) % px) + y * px, ((x + 1) % px) + y * px,
                 x + ((y + py - 1) % py) * px, x + ((y + 1) % py) * px};
    char buf[1];
    for (int i = 0; i < it; i++) {
        BSIM_Add_time(c);
        LMPI_Request q[8];
        for (int k = 0; k < 4; k++)
            LMPI_Irecv(buf, sz, LMPI_BYTE, nb[k], k ^ 1, LMPI_COMM_WORLD, &q[k]);
        for (int k = 0; k < 4; k++)
            LMPI_Isend(buf, sz, LMPI_BYTE, nb[k], k, LMPI_COMM_WORLD, &q[4 + k]);
        LMPI_Waitall(8, q, LMPI_STATUSES_IGNORE);
    }
    residual = r;
    double sum;
    LMPI_Allreduce(&residual, &sum, 1, LMPI_DOUBLE, LMPI_SUM, LMPI_COMM_WORLD);
    if (argc > 4 || r == 0)
        printf("rank %d %.17g\n", r, LMPI_Wtime());
    LMPI_Finalize();
    return 0;
}
