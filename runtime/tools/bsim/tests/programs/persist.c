/* Ring with persistent requests: argv[1] iterations of Startall + Waitall of
 * a send to the right and a receive from the left of argv[2] bytes. */
#include <lmpi.h>
#include <stdio.h>
#include <stdlib.h>
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r, n;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm_size(LMPI_COMM_WORLD, &n);
    int k = atoi(argv[1]), b = atoi(argv[2]);
    char *s = malloc(b + 1), *d = malloc(b + 1);
    LMPI_Request q[2];
    LMPI_Recv_init(d, b, LMPI_BYTE, (r + n - 1) % n, 3, LMPI_COMM_WORLD, &q[0]);
    LMPI_Send_init(s, b, LMPI_BYTE, (r + 1) % n, 3, LMPI_COMM_WORLD, &q[1]);
    for (int i = 0; i < k; i++) {
        LMPI_Startall(2, q);
        LMPI_Status st[2];
        LMPI_Waitall(2, q, st);
        if (st[0].LMPI_SOURCE != (r + n - 1) % n || q[0] == LMPI_REQUEST_NULL) {
            printf("bad status or handle\n");
            return 1;
        }
    }
    LMPI_Request_free(&q[0]);
    LMPI_Request_free(&q[1]);
    printf("rank %d %.17g\n", r, LMPI_Wtime());
    LMPI_Finalize();
    return 0;
}
