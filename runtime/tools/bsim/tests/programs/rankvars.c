/* Per-rank variables (BSIM_RANK_VAR): a file-scope initialised int, a zeroed
 * array and a static local. Every rank changes them, then switches to the
 * others (Barrier, Sendrecv) three times; each rank must still see its own
 * values and receive its left neighbour's (payload mode). With plain globals
 * (-DBSIM_RANK_VAR=) the ranks share them and some print WRONG. */
#include <lmpi.h>
#include <stdio.h>
BSIM_RANK_VAR static int counter = 5;
BSIM_RANK_VAR double hist[4];
static int bump(void) {
    BSIM_RANK_VAR static int calls;
    return ++calls;
}
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r, n;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm_size(LMPI_COMM_WORLD, &n);
    int ok = counter == 5 && hist[r % 4] == 0.0;
    counter += 100 * r;
    hist[r % 4] = r;
    int left = (r + n - 1) % n, right = (r + 1) % n;
    for (int i = 0; i < 3; i++) {
        bump();
        LMPI_Barrier(LMPI_COMM_WORLD);
        int x = counter, y = -1;
        LMPI_Sendrecv(&x, 1, LMPI_INT, right, 0, &y, 1, LMPI_INT, left, 0,
                      LMPI_COMM_WORLD, LMPI_STATUS_IGNORE);
        ok = ok && y == 5 + 100 * left;
    }
    ok = ok && counter == 5 + 100 * r && hist[r % 4] == r && bump() == 4;
    printf("rank %d %s counter %d\n", r, ok ? "ok" : "WRONG", counter);
    LMPI_Finalize();
    return 0;
}
