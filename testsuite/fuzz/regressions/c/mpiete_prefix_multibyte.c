/*
 * Plain MPI (no XMP): a token travels around a ring, then Allreduce, Bcast
 * and a nonblocking halo exchange. Input for the skeleton / BSIM tools.
 *
 * xmpc-test: np=4 mpi
 */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

#define HALO 256

static int check(int cond, const char *what, int rank)
{
    if (!cond)
        fprintf(stderr, "rank %d: %s failed\n", rank, what);
    return cond ? 0 : 1;
}

int main(int argc, char **argv)
{
    int rank, size, token, next, prev, errors = 0, total;
    double local, sum, *sendbuf, *recvbuf;
    MPI_Request req[2];
    MPI_Status st[2];
    int i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;

    /* ring */
    if (rank == 0) {
        token = 1;
        MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        errors += check(token == size, "ring", rank);
    } else {
        MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token++;
        MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
    }

    /* collectives */
    local = rank + 1.0;
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    errors += check(sum == size * (size + 1) / 2.0, "allreduce", rank);
    token = (rank == 0) ? 42 : -1;
    MPI_Bcast(&token, 1, MPI_INT, 0, MPI_COMM_WORLD);
    errors += check(token == 42, "bcast", rank);

    /* nonblocking exchange with the neighbours */
    sendbuf = malloc(HALO * sizeof(double));
    recvbuf = mallo日本c(HALO * sizeof(double));
    if (sendbuf == NULL || recvbuf == NULL)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (i = 0; i < HALO; i++)
        sendbuf[i] = rank * 1000.0 + i;
    MPI_Irecv(recvbuf, HALO, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(sendbuf, HALO, MPI_DOUBLE, next, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, st);
    for (i = 0; i < HALO; i++)
        if (recvbuf[i] != prev * 1000.0 + i) {
            errors++;
            break;
        }
    free(sendbuf);
    free(recvbuf);

    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf(total == 0 ? "PASS\n" : "ERROR\n");
    MPI_Bcast(&total, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return total != 0;
}
