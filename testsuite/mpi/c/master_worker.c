/* Master-worker: rank 0 hands out `ntask` tasks one at a time (tag WORK), each worker
 * returns a result and gets the next task; tag STOP ends a worker. Task t sums
 * 1/k^2 for k = 1..(t % 5 + 1) * scale. Results are kept per task; the self-check
 * recomputes every task serially on the master.  Usage: master_worker [ntask [scale]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define MAXTASK 4096
#define WORK 1
#define STOP 2

static double results[MAXTASK];

static double task_value(int t, int scale) {
    double s = 0.0;
    int k, n = (t % 5 + 1) * scale;
    for (k = 1; k <= n; k++) s += 1.0 / ((double)k * k);
    return s;
}

int main(int argc, char **argv) {
    int ntask = 64, scale = 20000, rank, size, next = 0, outstanding = 0, done = 0, w, t, task;
    double res, pkt[2], total = 0.0, ref = 0.0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) ntask = atoi(argv[1]);
    if (argc > 2) scale = atoi(argv[2]);
    if (ntask > MAXTASK) ntask = MAXTASK;
    if (rank == 0) {
        for (w = 1; w < size && next < ntask; w++) {
            task = next++;
            MPI_Send(&task, 1, MPI_INT, w, WORK, MPI_COMM_WORLD);
            outstanding++;
        }
        while (outstanding > 0) {
            MPI_Recv(pkt, 2, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            outstanding--;
            done++;
            results[(int)pkt[0]] = pkt[1];
            if (next < ntask) {
                task = next++;
                MPI_Send(&task, 1, MPI_INT, st.MPI_SOURCE, WORK, MPI_COMM_WORLD);
                outstanding++;
            }
        }
        for (w = 1; w < size; w++) MPI_Send(&task, 0, MPI_INT, w, STOP, MPI_COMM_WORLD);
        for (t = 0; t < ntask; t++) {
            total += results[t];
            ref += task_value(t, scale);
        }
        printf("master_worker np=%d tasks=%d done=%d total=%.12e serial=%.12e\n", size, ntask, done, total, ref);
        printf("%s\n", done == ntask && fabs(total - ref) <= 1e-12 * ref ? "CHECK OK" : "CHECK FAILED");
    } else {
        while (1) {
            MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            if (st.MPI_TAG == STOP) break;
            pkt[0] = task;
            pkt[1] = task_value(task, scale);
            MPI_Send(pkt, 2, MPI_DOUBLE, 0, WORK, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
