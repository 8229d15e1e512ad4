/* Timers of params.c (NPB's c_timers.c in small): functions that call MPI have
 * compute blocks, which run inside the caller's block. */
#include <mpi.h>

static double start[8], elapsed[8];

void timer_start(int n) {
    start[n] = MPI_Wtime();
}

void timer_stop(int n) {
    double now = MPI_Wtime();
    elapsed[n] += now - start[n];
}

double timer_read(int n) {
    return elapsed[n];
}
