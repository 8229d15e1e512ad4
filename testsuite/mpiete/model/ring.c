/* Modelling-transform input in C: ring with blocking calls and collectives. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, np;
    double x, y, t, in[4], out[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    x = rank;
    if (rank % 2 == 0) {
        MPI_Send(&x, 1, MPI_DOUBLE, (rank + 1) % np, 0, MPI_COMM_WORLD);
        MPI_Recv(&y, 1, MPI_DOUBLE, (rank + np - 1) % np, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&y, 1, MPI_DOUBLE, (rank + np - 1) % np, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_DOUBLE, (rank + 1) % np, 0, MPI_COMM_WORLD);
    }
    MPI_Sendrecv(&x, 1, MPI_DOUBLE, (rank + 1) % np, 1, &y, 1, MPI_DOUBLE, (rank + np - 1) % np, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(&y, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < 4; i++) in[i] = rank * 4 + i;
    MPI_Alltoall(in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, MPI_COMM_WORLD);
    if (np == 4 && out[3] != 12 + rank) return 3;
    if (t != np * (np - 1) / 2.0) return 1;
    if (rank == 0) printf("RING VERIFIED\n");
    MPI_Finalize();
    return 0;
}
