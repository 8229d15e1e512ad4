/* 2-D periodic halo skeleton: each iteration computes (ADD_TIME), then
 * exchanges `bytes` with 4 neighbours; an Allreduce every 10 iterations.
 * argv: iterations compute_seconds bytes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int it = atoi(argv[1]);
    double c = atof(argv[2]);
    long bytes = atol(argv[3]);
    int px = 1;
    while (px * px < n) px *= 2;
    if (n % px) px = 1;
    int py = n / px, x = r % px, y = r / px;
    int nb[4] = {((x + px - 1) % px) + y * px, ((x + 1) % px) + y * px,
                 x + ((y + py - 1) % py) * px, x + ((y + 1) % py) * px};
    char *buf = malloc(BUF_BYTES(8 * bytes));
    double res = 1.0, sum;
    for (int i = 0; i < it; i++) {
        ADD_TIME(c * (1.0 + 0.1 * ((r * 7 + i) % 5)));
        MPI_Request q[8];
        for (int k = 0; k < 4; k++)
            MPI_Irecv(buf + BUF_OFF(k * bytes), bytes, MPI_BYTE, nb[k], k ^ 1, MPI_COMM_WORLD, &q[k]);
        for (int k = 0; k < 4; k++)
            MPI_Isend(buf + BUF_OFF((4 + k) * bytes), bytes, MPI_BYTE, nb[k], k, MPI_COMM_WORLD, &q[4 + k]);
        MPI_Waitall(8, q, MPI_STATUSES_IGNORE);
        if (i % 10 == 9) MPI_Allreduce(&res, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    /* every rank prints its end time (a skeleton's reductions carry no data) */
    printf("time %.12e\n", MPI_Wtime());
    MPI_Finalize();
    return 0;
}
