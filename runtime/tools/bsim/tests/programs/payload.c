/* An ordinary MPI program with MPI_ renamed LMPI_: run in payload mode it must
 * compute the right answers. Prints OK or the first failure; exit 1 on failure. */
#include <lmpi.h>
#include <stdio.h>
#include <stdlib.h>
/* one printf per line: under the threads back end ranks print at once, and three
 * calls per line interleaved mid-line ("FAIL rank 3: FAIL rank 1: ...") */
#define CHECK(c, ...) do { if (!(c)) { char m_[256]; snprintf(m_, sizeof m_, __VA_ARGS__); printf("FAIL rank %d: %s\n", r, m_); return 1; } } while (0)
int bsim_main(int argc, char **argv) {
    LMPI_Init(&argc, &argv);
    int r, n;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm_size(LMPI_COMM_WORLD, &n);
    int sum = 0;
    LMPI_Allreduce(&r, &sum, 1, LMPI_INT, LMPI_SUM, LMPI_COMM_WORLD);
    CHECK(sum == n * (n - 1) / 2, "allreduce sum %d", sum);
    double dv = r * 1.5, dmax = 0;
    LMPI_Reduce(&dv, &dmax, 1, LMPI_DOUBLE, LMPI_MAX, n - 1, LMPI_COMM_WORLD);
    if (r == n - 1) CHECK(dmax == (n - 1) * 1.5, "reduce max %g", dmax);
    struct { double v; int i; } in = {(double)((r * 7) % n), r}, out;
    LMPI_Allreduce(&in, &out, 1, LMPI_DOUBLE_INT, LMPI_MAXLOC, LMPI_COMM_WORLD);
    CHECK(out.v == n - 1, "maxloc value %g", out.v);
    long big = r == 1 ? 123456789012L : 0;
    LMPI_Bcast(&big, 1, LMPI_LONG, 1 % n, LMPI_COMM_WORLD);
    CHECK(big == (n > 1 ? 123456789012L : 0), "bcast %ld", big);
    int *all = malloc(sizeof(int) * n * 2), *mine = malloc(sizeof(int) * n);
    LMPI_Allgather(&r, 1, LMPI_INT, all, 1, LMPI_INT, LMPI_COMM_WORLD);
    for (int i = 0; i < n; i++) CHECK(all[i] == i, "allgather[%d] = %d", i, all[i]);
    for (int i = 0; i < n; i++) mine[i] = r * 100 + i;
    LMPI_Alltoall(mine, 1, LMPI_INT, all, 1, LMPI_INT, LMPI_COMM_WORLD);
    for (int i = 0; i < n; i++) CHECK(all[i] == i * 100 + r, "alltoall[%d] = %d", i, all[i]);
    int sq = r * r, got = -1;
    LMPI_Gather(&sq, 1, LMPI_INT, all, 1, LMPI_INT, 0, LMPI_COMM_WORLD);
    if (r == 0) for (int i = 0; i < n; i++) CHECK(all[i] == i * i, "gather[%d] = %d", i, all[i]);
    LMPI_Scatter(all, 1, LMPI_INT, &got, 1, LMPI_INT, 0, LMPI_COMM_WORLD);
    CHECK(got == r * r, "scatter %d", got);
    /* ring with point-to-point data */
    int token = r, left = (r + n - 1) % n, right = (r + 1) % n, recvd = -1;
    LMPI_Sendrecv(&token, 1, LMPI_INT, right, 3, &recvd, 1, LMPI_INT, left, 3, LMPI_COMM_WORLD, LMPI_STATUS_IGNORE);
    CHECK(recvd == left, "sendrecv got %d", recvd);
    double *big_out = malloc(20000 * sizeof(double)), *big_in = malloc(20000 * sizeof(double)); /* rendezvous-sized (160 KB) */
    for (int i = 0; i < 20000; i++) big_out[i] = r + i * 1e-3;
    LMPI_Request q[2];
    LMPI_Irecv(big_in, 20000, LMPI_DOUBLE, left, 4, LMPI_COMM_WORLD, &q[0]);
    LMPI_Isend(big_out, 20000, LMPI_DOUBLE, right, 4, LMPI_COMM_WORLD, &q[1]);
    LMPI_Waitall(2, q, LMPI_STATUSES_IGNORE);
    CHECK(big_in[19999] == left + 19999 * 1e-3, "isend/irecv payload %g", big_in[19999]);
    /* split into even and odd ranks */
    LMPI_Comm half;
    LMPI_Comm_split(LMPI_COMM_WORLD, r % 2, -r, &half);
    int hr, hn, hsum = 0;
    LMPI_Comm_rank(half, &hr);
    LMPI_Comm_size(half, &hn);
    CHECK(hn == (n + 1 - r % 2) / 2, "split size %d", hn);
    LMPI_Allreduce(&r, &hsum, 1, LMPI_INT, LMPI_SUM, half);
    int expect = 0;
    for (int i = r % 2; i < n; i += 2) expect += i;
    CHECK(hsum == expect, "split allreduce %d != %d", hsum, expect);
    LMPI_Comm_free(&half);
    if (r == 0) printf("OK\n");
    LMPI_Finalize();
    return 0;
}
