#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "mpiete.h"
static volatile double sink;
static void spin(long n) /* about n ns */ { double s = 0; for (long i = 0; i < n; i++) s += i * 1e-9; sink = s; }
/* ring exchange + allreduce; block 1 costs (rank+1) units, block 2 one unit on
 * average: 1.5 and 0.5 in turn (spread 0.5) */
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int r, p; MPI_Comm_rank(MPI_COMM_WORLD, &r); MPI_Comm_size(MPI_COMM_WORLD, &p);
    double buf[128] = {0}, in[128];
    int nit = argc > 1 ? atoi(argv[1]) : 20;
    mpiete_region_begin();
    for (int it = 0; it < nit; it++) {
        mpiete_block_begin(1); spin(200000 * (r + 1)); mpiete_block_end(1);
        MPI_Sendrecv(buf, 128, MPI_DOUBLE, (r + 1) % p, 5, in, 128, MPI_DOUBLE, (r + p - 1) % p, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double x = r, y;
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (y != p * (p - 1) / 2.0) { printf("bad allreduce %g\n", y); MPI_Abort(MPI_COMM_WORLD, 1); }
        mpiete_block_begin(2); spin(it % 2 ? 150000 : 50000); mpiete_block_end(2);
    }
    mpiete_region_end();
    if (r == 0) printf("ok\n");
    MPI_Finalize();
}
