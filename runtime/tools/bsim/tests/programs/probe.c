/* Ranks > 0 compute then send r*100 bytes to rank 0 (argv[1] "spread": rank r
 * computes (n - r) ms; "tie": all 1 ms). Rank 0 probes with ANY_SOURCE,
 * receives exactly the probed size, and prints the order. argv[1] "iprobe":
 * rank n-1 sends after 1 ms, rank 0 polls Iprobe every 0.1 ms. "deadlock":
 * rank 0 probes for a message nobody sends. */
#include <lmpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r, n;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm_size(LMPI_COMM_WORLD, &n);
    char buf[4096];
    if (!strcmp(argv[1], "iprobe")) {
        if (r == n - 1) {
            BSIM_Add_time(1e-3);
            LMPI_Send(buf, 8, LMPI_BYTE, 0, 9, LMPI_COMM_WORLD);
        } else if (r == 0) {
            int flag = 0, polls = 0;
            LMPI_Status st;
            while (!flag) {
                LMPI_Iprobe(LMPI_ANY_SOURCE, 9, LMPI_COMM_WORLD, &flag, &st);
                polls++;
                if (!flag) BSIM_Add_time(1e-4);
            }
            int c;
            LMPI_Get_count(&st, LMPI_BYTE, &c);
            LMPI_Recv(buf, c, LMPI_BYTE, st.LMPI_SOURCE, 9, LMPI_COMM_WORLD, LMPI_STATUS_IGNORE);
            printf("polls %d from %d bytes %d at %.17g\n", polls, st.LMPI_SOURCE, c, LMPI_Wtime());
        }
    } else if (!strcmp(argv[1], "deadlock")) {
        /* nobody sends tag 99 */
        if (r == 0) LMPI_Probe(1, 99, LMPI_COMM_WORLD, LMPI_STATUS_IGNORE);
    } else if (r > 0) {
        BSIM_Add_time(strcmp(argv[1], "tie") ? (n - r) * 1e-3 : 1e-3);
        LMPI_Send(buf, r * 100, LMPI_BYTE, 0, r, LMPI_COMM_WORLD);
    } else {
        for (int k = 1; k < n; k++) {
            LMPI_Status st;
            int c;
            LMPI_Probe(LMPI_ANY_SOURCE, LMPI_ANY_TAG, LMPI_COMM_WORLD, &st);
            double tp = LMPI_Wtime();
            LMPI_Get_count(&st, LMPI_BYTE, &c);
            char *d = malloc(c);
            LMPI_Recv(d, c, LMPI_BYTE, st.LMPI_SOURCE, st.LMPI_TAG, LMPI_COMM_WORLD, LMPI_STATUS_IGNORE);
            free(d);
            printf("from %d bytes %d probe %.17g recv %.17g\n", st.LMPI_SOURCE, c, tp, LMPI_Wtime());
        }
    }
    LMPI_Finalize();
    return 0;
}
