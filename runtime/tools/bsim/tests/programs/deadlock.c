/* Ranks 0 and 1 both receive first: a deadlock. Rank 2 finishes. */
#include <lmpi.h>
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r, v = 0;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    if (r < 2) {
        LMPI_Recv(&v, 1, LMPI_INT, 1 - r, 0, LMPI_COMM_WORLD, LMPI_STATUS_IGNORE);
        LMPI_Send(&v, 1, LMPI_INT, 1 - r, 0, LMPI_COMM_WORLD);
    }
    LMPI_Finalize();
    return 0;
}
