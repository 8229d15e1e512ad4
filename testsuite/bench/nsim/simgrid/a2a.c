/* All-to-all by hand, same schedule as NSIM's patterns:
 *   pair  BYTES : step i sends to r+i, receives from r-i (p-1 steps)
 *   bruck BYTES : round k sends the blocks with bit k set to r+2^k */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "common.h"
int main(int argc, char **argv) {
    int rank, p;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int bruck = argc > 1 && strcmp(argv[1], "bruck") == 0;
    long bytes = argc > 2 ? parse_size(argv[2]) : 4;
    char *sb = SMPI_SHARED_MALLOC(bytes * p), *rb = SMPI_SHARED_MALLOC(bytes * p);
    MPI_Request rq[2];
    double t0 = MPI_Wtime();
    if (!bruck) {
        for (int i = 1; i < p; i++) {
            MPI_Irecv(rb, bytes, MPI_BYTE, (rank + p - i) % p, 0, MPI_COMM_WORLD, &rq[0]);
            MPI_Isend(sb, bytes, MPI_BYTE, (rank + i) % p, 0, MPI_COMM_WORLD, &rq[1]);
            MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        }
    } else {
        for (int d = 1; d < p; d <<= 1) {
            long blocks = 0;
            for (int j = 0; j < p; j++) if (j & d) blocks++;
            MPI_Irecv(rb, blocks * bytes, MPI_BYTE, (rank + p - d) % p, 0, MPI_COMM_WORLD, &rq[0]);
            MPI_Isend(sb, blocks * bytes, MPI_BYTE, (rank + d) % p, 0, MPI_COMM_WORLD, &rq[1]);
            MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        }
    }
    double t = MPI_Wtime() - t0, mx;
    MPI_Reduce(&t, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("predicted_ms=%.6f\n", mx * 1e3);
    MPI_Finalize();
    return 0;
}
