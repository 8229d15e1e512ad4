/* Rank 0 receives 4 bytes from every other rank. Rank r computes 1 ms, the
 * last rank 2 ms when n > 2. argv[1] "waitsome": Waitsome until all are in,
 * printing each batch; "testany"/"testsome": poll every 0.1 ms. */
#include <lmpi.h>
#include <stdio.h>
#include <string.h>
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r, n;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm_size(LMPI_COMM_WORLD, &n);
    int v = r;
    if (r > 0) {
        BSIM_Add_time(r == n - 1 && n > 2 ? 2e-3 : 1e-3);
        LMPI_Send(&v, 1, LMPI_INT, 0, 4, LMPI_COMM_WORLD);
    } else {
        LMPI_Request q[64];
        int got[64], idx[64], left = n - 1;
        LMPI_Status st[64];
        q[0] = LMPI_REQUEST_NULL;
        for (int k = 1; k < n; k++)
            LMPI_Irecv(&got[k], 1, LMPI_INT, k, 4, LMPI_COMM_WORLD, &q[k]);
        while (left > 0) {
            int out = 0;
            if (!strcmp(argv[1], "waitsome")) {
                LMPI_Waitsome(n, q, &out, idx, st);
            } else if (!strcmp(argv[1], "testsome")) {
                LMPI_Testsome(n, q, &out, idx, st);
            } else {
                int flag;
                LMPI_Testany(n, q, &idx[0], &flag, &st[0]);
                out = flag ? 1 : 0;
            }
            if (out > 0) {
                printf("some %d at %.17g:", out, LMPI_Wtime());
                for (int i = 0; i < out; i++) {
                    if (st[i].LMPI_SOURCE != idx[i] || q[idx[i]] != LMPI_REQUEST_NULL) return 1;
                    printf(" %d", idx[i]);
                }
                printf("\n");
                left -= out;
            } else {
                BSIM_Add_time(1e-4);
            }
        }
    }
    LMPI_Finalize();
    return 0;
}
