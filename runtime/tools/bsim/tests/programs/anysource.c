/* Rank i > 0 computes (n - i) ms, then sends its rank to 0. Rank 0 receives
 * with ANY_SOURCE (argv[1] = "recv") or Irecv + Waitany ("waitany"), or
 * polls with Test ("test"), and prints the order of arrival. */
#include <lmpi.h>
#include <stdio.h>
#include <string.h>
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r, n;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm_size(LMPI_COMM_WORLD, &n);
    if (r > 0) {
        BSIM_Add_time((n - r) * 1e-3);
        LMPI_Send(&r, 1, LMPI_INT, 0, 5, LMPI_COMM_WORLD);
    } else if (!strcmp(argv[1], "recv")) {
        for (int k = 1; k < n; k++) {
            int v;
            LMPI_Status st;
            LMPI_Recv(&v, 1, LMPI_INT, LMPI_ANY_SOURCE, 5, LMPI_COMM_WORLD, &st);
            printf("from %d at %.17g\n", st.LMPI_SOURCE, LMPI_Wtime());
        }
    } else if (!strcmp(argv[1], "waitany")) {
        LMPI_Request q[64];
        int v[64];
        for (int k = 1; k < n; k++)
            LMPI_Irecv(&v[k], 1, LMPI_INT, k, 5, LMPI_COMM_WORLD, &q[k - 1]);
        for (int k = 1; k < n; k++) {
            int idx;
            LMPI_Status st;
            LMPI_Waitany(n - 1, q, &idx, &st);
            printf("from %d at %.17g\n", idx + 1, LMPI_Wtime());
        }
    } else {
        int v, flag = 0, polls = 0;
        LMPI_Request q;
        LMPI_Irecv(&v, 1, LMPI_INT, n - 1, 5, LMPI_COMM_WORLD, &q);
        while (!flag) {
            LMPI_Test(&q, &flag, LMPI_STATUS_IGNORE);
            polls++;
            if (!flag) BSIM_Add_time(1e-4);
        }
        printf("polls %d at %.17g\n", polls, LMPI_Wtime());
    }
    LMPI_Finalize();
    return 0;
}
