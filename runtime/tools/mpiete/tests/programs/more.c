/* MPI_Waitsome / MPI_Testany / MPI_Testsome ("some", 2 ranks), Gatherv /
 * Scatterv / Allgatherv / Alltoallv ("v", 4 ranks) and persistent requests
 * ("persist", 2 ranks) under libxmpc_mpiete, C bindings. more.f90 is the same
 * program in Fortran; runtime/tools/mpiete/tests/runtime.rs checks both against one
 * closed form. Blocks 1..3 are compute blocks. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpiete.h"
static volatile double sink;
static void spin(double s) { double t0 = MPI_Wtime(), x = 0; while (MPI_Wtime() - t0 < s) x += 1; sink = x; }
static void block(int id, double s) { mpiete_block_begin(id); spin(s); mpiete_block_end(id); }
static void fail(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

static void some(int r) {
    double a[100], x = 0, y[2], z[3];
    MPI_Request req[2];
    MPI_Status st[2];
    int n, idx[2], flag = 0, k;
    for (int i = 0; i < 100; i++) a[i] = r;
    if (r == 0) {
        MPI_Irecv(a, 100, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&x, 1, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, &req[1]);
        /* rank 1 sends tag 1 only after tag 3: only the tag-2 receive can complete */
        MPI_Waitsome(2, req, &n, idx, st);
        if (n != 1 || idx[0] != 1 || st[0].MPI_TAG != 2) fail(1);
        block(1, 2e-3);
        MPI_Send(NULL, 0, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD);
        while (!flag) MPI_Testany(2, req, &k, &flag, &st[0]);
        if (k != 0 || a[99] != 1 || st[0].MPI_SOURCE != 1) fail(2);
        MPI_Testany(2, req, &k, &flag, &st[0]);
        if (!flag || k != MPI_UNDEFINED) fail(3);
        MPI_Waitsome(2, req, &n, idx, st);
        if (n != MPI_UNDEFINED) fail(4);
        MPI_Irecv(y, 2, MPI_DOUBLE, 1, 4, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(z, 3, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD, &req[1]);
        for (int done = 0; done < 2; done += n) {
            MPI_Testsome(2, req, &n, idx, st);
            for (int j = 0; j < n; j++)
                if (st[j].MPI_TAG != 4 + idx[j]) fail(5);
        }
        if (y[1] != 1 || z[2] != 1) fail(6);
    } else {
        MPI_Send(a, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        block(2, 4e-3);
        MPI_Send(a, 100, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
        block(3, 4e-3);
        MPI_Send(a, 2, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD);
        MPI_Send(a, 3, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD);
    }
}

/* counts in doubles (runtime.rs has the same tables) */
static const int GV[4] = {2, 3, 0, 5}, SV[4] = {4, 1, 2, 0}, AG[4] = {1, 4, 2, 3};

static void vcoll(int r) {
    double s[16], g[16], v[16], t[16];
    int dis[4], sd[4], rd[4], sc[4], rc[4], off;
    block(1, 1e-3 * (r + 1));
    /* Gatherv to rank 1, blocks stored in reverse rank order */
    off = 0;
    for (int i = 3; i >= 0; i--) { dis[i] = off; off += GV[i]; }
    for (int i = 0; i < GV[r]; i++) s[i] = 10 * r + i;
    MPI_Gatherv(s, GV[r], MPI_DOUBLE, g, GV, dis, MPI_DOUBLE, 1, MPI_COMM_WORLD);
    if (r == 1)
        for (int p = 0; p < 4; p++)
            for (int i = 0; i < GV[p]; i++)
                if (g[dis[p] + i] != 10 * p + i) fail(10);
    /* Scatterv from rank 1 */
    off = 0;
    for (int i = 0; i < 4; i++) { dis[i] = off; off += SV[i]; }
    for (int i = 0; i < 16; i++) g[i] = -i;
    MPI_Scatterv(g, SV, dis, MPI_DOUBLE, v, SV[r], MPI_DOUBLE, 1, MPI_COMM_WORLD);
    for (int i = 0; i < SV[r]; i++)
        if (v[i] != -(dis[r] + i)) fail(11);
    block(2, 1e-3 * (4 - r));
    /* Allgatherv: rank p contributes AG[p] doubles */
    off = 0;
    for (int i = 0; i < 4; i++) { dis[i] = off; off += AG[i]; }
    for (int i = 0; i < AG[r]; i++) s[i] = 100 * r + i;
    MPI_Allgatherv(s, AG[r], MPI_DOUBLE, g, AG, dis, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int p = 0; p < 4; p++)
        for (int i = 0; i < AG[p]; i++)
            if (g[dis[p] + i] != 100 * p + i) fail(12);
    /* Alltoallv: rank r sends (r + p) % 3 doubles to rank p (0 to some) */
    int so = 0, ro = 0;
    for (int p = 0; p < 4; p++) {
        sc[p] = (r + p) % 3; sd[p] = so; so += sc[p];
        rc[p] = (p + r) % 3; rd[p] = ro; ro += rc[p];
        for (int i = 0; i < sc[p]; i++) s[sd[p] + i] = 1000 * r + 10 * p + i;
    }
    memset(t, 0, sizeof t);
    MPI_Alltoallv(s, sc, sd, MPI_DOUBLE, t, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int p = 0; p < 4; p++)
        for (int i = 0; i < rc[p]; i++)
            if (t[rd[p] + i] != 1000 * p + 10 * r + i) fail(13);
}

static void persist(int r) {
    double out[10] = {0}, in[10];
    MPI_Request rq[2];
    int o = 1 - r;
    if (r == 0) {
        MPI_Send_init(out, 10, MPI_DOUBLE, o, 6, MPI_COMM_WORLD, &rq[0]);
        MPI_Recv_init(in, 10, MPI_DOUBLE, o, 7, MPI_COMM_WORLD, &rq[1]);
    } else {
        MPI_Recv_init(in, 10, MPI_DOUBLE, o, 6, MPI_COMM_WORLD, &rq[0]);
        MPI_Send_init(out, 10, MPI_DOUBLE, o, 7, MPI_COMM_WORLD, &rq[1]);
    }
    for (int it = 0; it < 3; it++) {
        for (int i = 0; i < 10; i++) out[i] = 100 * r + 10 * it + i;
        if (r == 0) {
            block(1, 1e-3);
            MPI_Startall(2, rq);
            MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        } else {
            MPI_Start(&rq[0]);
            block(2, 3e-3);
            MPI_Start(&rq[1]);
            MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
            MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
        }
        for (int i = 0; i < 10; i++)
            if (in[i] != 100 * o + 10 * it + i) fail(20);
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
    if (rq[0] != MPI_REQUEST_NULL) fail(21);
}

int main(int argc, char **argv) {
    int r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    const char *ph = argc > 1 ? argv[1] : "";
    mpiete_region_begin();
    if (!strcmp(ph, "some")) some(r);
    else if (!strcmp(ph, "v")) vcoll(r);
    else if (!strcmp(ph, "persist")) persist(r);
    else fail(99);
    mpiete_region_end();
    if (r == 0) printf("ok\n");
    MPI_Finalize();
    return 0;
}
