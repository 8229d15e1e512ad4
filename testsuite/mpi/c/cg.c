/* CG-like solver: conjugate gradients on the 1-D Poisson matrix tridiag(-1, 2, -1) of
 * order n, rows split over the ranks; per iteration one halo exchange of p
 * (MPI_Sendrecv) and two dot products (MPI_Allreduce). A fixed number of iterations, as
 * in NPB CG. Self-check: rank 0 reruns the iterations serially and compares rho.
 * Usage: cg [n [iters]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

/* q = A p on rows 1..m of a vector with one ghost entry each side. */
static void matvec(int m, const double *p, double *q) {
    int i;
    for (i = 1; i <= m; i++) q[i] = 2.0 * p[i] - p[i - 1] - p[i + 1];
}

static double serial_cg(int n, int iters) {
    double *x = calloc(n + 2, sizeof(double)), *r = calloc(n + 2, sizeof(double));
    double *p = calloc(n + 2, sizeof(double)), *q = calloc(n + 2, sizeof(double));
    double rho = 0.0, rho_old, pq, alpha;
    int i, it;
    for (i = 1; i <= n; i++) {
        r[i] = 1.0 + (double)(i % 7) / 7.0;
        p[i] = r[i];
        rho += r[i] * r[i];
    }
    for (it = 0; it < iters; it++) {
        matvec(n, p, q);
        pq = 0.0;
        for (i = 1; i <= n; i++) pq += p[i] * q[i];
        alpha = rho / pq;
        rho_old = rho;
        rho = 0.0;
        for (i = 1; i <= n; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
            rho += r[i] * r[i];
        }
        for (i = 1; i <= n; i++) p[i] = r[i] + rho / rho_old * p[i];
    }
    free(x); free(r); free(p); free(q);
    return rho;
}

int main(int argc, char **argv) {
    int n = 1000, iters = 50, rank, size, m, first, left, right, it, i;
    double *x, *r, *p, *q, rho, rho_old, pq, alpha, local, t0, t1, tc0, tcomp = 0.0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) n = atoi(argv[1]);
    if (argc > 2) iters = atoi(argv[2]);
    left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

    m = n / size + (rank < n % size ? 1 : 0);
    first = rank * (n / size) + (rank < n % size ? rank : n % size);
    x = calloc(m + 2, sizeof(double));
    r = calloc(m + 2, sizeof(double));
    p = calloc(m + 2, sizeof(double));
    q = calloc(m + 2, sizeof(double));
    local = 0.0;
    for (i = 1; i <= m; i++) {
        r[i] = 1.0 + (double)((first + i) % 7) / 7.0;
        p[i] = r[i];
        local += r[i] * r[i];
    }
    MPI_Allreduce(&local, &rho, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (it = 0; it < iters; it++) {
        MPI_Sendrecv(&p[m], 1, MPI_DOUBLE, right, 0, &p[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&p[1], 1, MPI_DOUBLE, left, 1, &p[m + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        tc0 = MPI_Wtime();
        matvec(m, p, q);
        local = 0.0;
        for (i = 1; i <= m; i++) local += p[i] * q[i];
        tcomp += MPI_Wtime() - tc0;
        MPI_Allreduce(&local, &pq, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        tc0 = MPI_Wtime();
        alpha = rho / pq;
        rho_old = rho;
        local = 0.0;
        for (i = 1; i <= m; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
            local += r[i] * r[i];
        }
        tcomp += MPI_Wtime() - tc0;
        MPI_Allreduce(&local, &rho, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        tc0 = MPI_Wtime();
        for (i = 1; i <= m; i++) p[i] = r[i] + rho / rho_old * p[i];
        tcomp += MPI_Wtime() - tc0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    t1 = MPI_Wtime();
    if (rank == 0) {
        double ref = serial_cg(n, iters);
        printf("cg n=%d iters=%d np=%d rho=%.12e serial=%.12e\n", n, iters, size, rho, ref);
        printf("%s\n", fabs(rho - ref) <= 1e-8 * fabs(ref) ? "CHECK OK" : "CHECK FAILED");
    }
#pragma bsim keep
    if (rank == 0) printf("time_s=%.6f compute_s=%.6f\n", t1 - t0, tcomp);
    free(x); free(r); free(p); free(q);
    MPI_Finalize();
    return 0;
}
