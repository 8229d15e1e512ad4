/* Timer overhead of libxmpc_mpiete's compute blocks: block 2 below is one scalar
 * update (a few ns of work), so its measured mean is what begin/end cost.
 * Usage: timer [iters] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int iters = 2000, it;
    double x = 1.0, g;
    MPI_Init(&argc, &argv);
    if (argc > 1) iters = atoi(argv[1]);
    for (it = 0; it < iters; it++) {
        MPI_Allreduce(&x, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        x = x * 1.0000001 + 1e-9;
    }
    if (x < 0) printf("%f\n", x);
    MPI_Finalize();
    return 0;
}
