/* MPI_Waitany, MPI_Test, MPI_Gather, MPI_Scatter (C bindings) under
 * libxmpc_mpiete, 2 ranks (runtime/tools/mpiete/tests/runtime.rs) */
#include <mpi.h>
#include <stdio.h>
#include "mpiete.h"
static volatile double sink;
static void spin(double s) { double t0 = MPI_Wtime(), x = 0; while (MPI_Wtime() - t0 < s) x += 1; sink = x; }
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int r, idx, flag = 0;
    double a[100], x = 0, g[8], v[4];
    MPI_Request req[2];
    MPI_Status st;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    for (int i = 0; i < 100; i++) a[i] = r;
    mpiete_region_begin();
    if (r == 0) {
        MPI_Irecv(a, 100, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&x, 1, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, &req[1]);
        MPI_Waitany(2, req, &idx, &st);
        if (idx != 1 || st.MPI_TAG != 2) MPI_Abort(MPI_COMM_WORLD, 1);
        mpiete_block_begin(1); spin(2e-3); mpiete_block_end(1);
        MPI_Send(NULL, 0, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD);
        while (!flag) MPI_Test(&req[0], &flag, &st);
        if (a[99] != 1 || req[0] != MPI_REQUEST_NULL) MPI_Abort(MPI_COMM_WORLD, 2);
    } else {
        MPI_Send(a, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mpiete_block_begin(2); spin(4e-3); mpiete_block_end(2);
        MPI_Send(a, 100, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    }
    for (int i = 0; i < 4; i++) v[i] = 10 * r + i;
    MPI_Gather(v, 4, MPI_DOUBLE, g, 4, MPI_DOUBLE, 1, MPI_COMM_WORLD);
    if (r == 1)
        for (int i = 0; i < 8; i++)
            if (g[i] != 10 * (i / 4) + i % 4) MPI_Abort(MPI_COMM_WORLD, 3);
    for (int i = 0; i < 8; i++) g[i] = -g[i];
    MPI_Scatter(g, 4, MPI_DOUBLE, v, 4, MPI_DOUBLE, 1, MPI_COMM_WORLD);
    for (int i = 0; i < 4; i++)
        if (v[i] != -(10 * r + i)) MPI_Abort(MPI_COMM_WORLD, 4);
    mpiete_region_end();
    if (r == 0) printf("ok\n");
    MPI_Finalize();
    return 0;
}
