/* 1-D heat equation, C input of the MPIETE pipeline (--simplify for C): each
 * iteration exchanges halos with the neighbours and sums the squared update
 * with MPI_Allreduce. Arguments: points per rank, iterations. After the
 * region every rank recomputes the whole domain sequentially and checks its
 * slice. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

void mpiete_region_begin(void);
void mpiete_region_end(void);

static double init(long j) { return (double)((j * j) % 17); }
static double dabs(double x) { return x < 0 ? -x : x; }

/* 0 when u[1..n] of `rank` equals the sequential result after nit steps */
static int check(const double *u, int n, int rank, int np, int nit, double res) {
    long N = (long)n * np;
    double *g = malloc((N + 2) * sizeof *g), *w = malloc((N + 2) * sizeof *w), r = 0;
    for (long j = 0; j < N + 2; j++) g[j] = w[j] = init(j);
    for (int it = 0; it < nit; it++) {
        r = 0;
        for (long j = 1; j <= N; j++) {
            w[j] = g[j] + 0.25 * (g[j - 1] - 2 * g[j] + g[j + 1]);
            r += (w[j] - g[j]) * (w[j] - g[j]);
        }
        for (long j = 1; j <= N; j++) g[j] = w[j];
    }
    int bad = dabs(r - res) > 1e-9 * (1 + r);
    for (int i = 1; i <= n; i++)
        if (dabs(u[i] - g[(long)rank * n + i]) > 1e-9) bad = 1;
    free(g);
    free(w);
    return bad;
}

int main(int argc, char **argv) {
    int rank, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int n = argc > 1 ? atoi(argv[1]) : 1000, nit = argc > 2 ? atoi(argv[2]) : 10;
    double *u = malloc((n + 2) * sizeof *u), *v = malloc((n + 2) * sizeof *v);
    double local, res = 0;
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < np - 1 ? rank + 1 : MPI_PROC_NULL;
    for (int i = 0; i < n + 2; i++) u[i] = v[i] = init((long)rank * n + i);
    mpiete_region_begin();
    for (int it = 0; it < nit; it++) {
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[n + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        local = 0;
        for (int i = 1; i <= n; i++) {
            v[i] = u[i] + 0.25 * (u[i - 1] - 2 * u[i] + u[i + 1]);
            local += (v[i] - u[i]) * (v[i] - u[i]);
        }
        for (int i = 1; i <= n; i++) u[i] = v[i];
        MPI_Allreduce(&local, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    mpiete_region_end();
    if (check(u, n, rank, np, nit, res)) {
        printf("HEAT FAILED on rank %d\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0) printf("HEAT VERIFIED\n");
    MPI_Finalize();
    free(u);
    free(v);
    return 0;
}
