/* Comm_split into even and odd ranks (key = -rank: reversed order), an
 * Allreduce on the half, Comm_dup of the half, a Barrier on the copy and a
 * Sendrecv ring in the copy. Prints "rank R sub S time T". */
#include <lmpi.h>
#include <stdio.h>
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r, s, n;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm half, copy;
    LMPI_Comm_split(LMPI_COMM_WORLD, r % 2, -r, &half);
    LMPI_Comm_rank(half, &s);
    LMPI_Comm_size(half, &n);
    double x = 1, y;
    LMPI_Allreduce(&x, &y, 1, LMPI_DOUBLE, LMPI_SUM, half);
    LMPI_Comm_dup(half, &copy);
    LMPI_Barrier(copy);
    char b[1], c[1];
    LMPI_Sendrecv(b, 100, LMPI_BYTE, (s + 1) % n, 1, c, 100, LMPI_BYTE, (s + n - 1) % n, 1, copy, LMPI_STATUS_IGNORE);
    LMPI_Comm_free(&copy);
    printf("rank %d sub %d time %.17g\n", r, s, LMPI_Wtime());
    LMPI_Finalize();
    return 0;
}
