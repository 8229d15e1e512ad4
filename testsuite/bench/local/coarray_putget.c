/* Coindexed put/get of 8 B and 1 MiB between 2 images (xmpc's local view) against the
 * same transfers written by hand with MPI one-sided calls (passive target,
 * MPI_Put/MPI_Get + MPI_Win_flush), over two kinds of window: MPI_Win_allocate
 * ("alloc") and MPI_Win_create on a static array ("create", what xmpc does with a C
 * coarray's storage). Image 0 transfers, image 1 waits. Prints per case the min and
 * the median over REPS repetitions of the time per transfer (us), and the ratios of
 * the medians xmpc / hand-written.
 * Run with 2 processes (testsuite/bench/local/run.sh). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xmp.h>
#define BIG (1 << 20)
#define REPS 7
char co[BIG]:[*];
static char src[BIG], dst[BIG];
/* initialised: .data, as xmpc places coarrays (docs/local-view.md) */
static char hstat[BIG] = {1};

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* kind: 0 xmpc put, 1 xmpc get, 2 hand put, 3 hand get (w), 4 put, 5 get (w2) */
static MPI_Win w2;
static double run(int kind, int bytes, int iters, MPI_Win w)
{
    int me = xmpc_this_image();
    xmp_sync_all(NULL);
    double t = MPI_Wtime();
    if (me == 0) {
        for (int i = 0; i < iters; i++) {
            switch (kind) {
            case 0: co[0:bytes]:[1] = src[0:bytes]; break;
            case 1: dst[0:bytes] = co[0:bytes]:[1]; break;
            case 2: MPI_Put(src, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, w); MPI_Win_flush(1, w); break;
            case 3: MPI_Get(dst, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, w); MPI_Win_flush(1, w); break;
            case 4: MPI_Put(src, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, w2); MPI_Win_flush(1, w2); break;
            case 5: MPI_Get(dst, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, w2); MPI_Win_flush(1, w2); break;
            }
        }
    }
    t = (MPI_Wtime() - t) / iters;
    xmp_sync_all(NULL);
    return t * 1e6;
}

int main(int argc, char **argv)
{
    int me = xmpc_this_image();
    int small_iters = argc > 1 ? atoi(argv[1]) : 20000, big_iters = argc > 2 ? atoi(argv[2]) : 200;
    if (xmp_num_images() != 2) {
        if (me == 0) printf("ERROR: run with 2 processes\n");
        return 1;
    }
    memset(src, 1, BIG);
    char *hbase;
    MPI_Win w;
    MPI_Win_allocate(BIG, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &hbase, &w);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, w);
    MPI_Win_create(hstat, BIG, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w2);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, w2);
    const char *names[4] = {"put", "get", "put", "get"};
    int sizes[2] = {8, BIG};
    if (me == 0)
        printf("%-4s %8s | %9s %9s | %9s %9s | %9s %9s | %7s %7s\n", "op", "bytes", "xmpc min", "med", "alloc min", "med", "create min", "med", "/alloc", "/create");
    for (int s = 0; s < 2; s++)
        for (int op = 0; op < 2; op++) {
            double tx[REPS], th[REPS], tc[REPS];
            int iters = s ? big_iters : small_iters;
            run(op, sizes[s], iters / 10 + 1, w); /* warm-up */
            run(op + 2, sizes[s], iters / 10 + 1, w);
            run(op + 4, sizes[s], iters / 10 + 1, w);
            for (int r = 0; r < REPS; r++) { /* interleaved: the same load for all */
                tx[r] = run(op, sizes[s], iters, w);
                th[r] = run(op + 2, sizes[s], iters, w);
                tc[r] = run(op + 4, sizes[s], iters, w);
            }
            qsort(tx, REPS, sizeof(double), cmp);
            qsort(th, REPS, sizeof(double), cmp);
            qsort(tc, REPS, sizeof(double), cmp);
            int m = REPS / 2;
            if (me == 0)
                printf("%-4s %8d | %9.3f %9.3f | %9.3f %9.3f | %9.3f %9.3f | %7.2f %7.2f\n", names[op], sizes[s], tx[0], tx[m], th[0], th[m], tc[0], tc[m], tx[m] / th[m], tx[m] / tc[m]);
        }
    /* the data arrived */
    xmp_sync_all(NULL);
    int bad = 0;
    if (me == 1)
        for (int i = 0; i < BIG; i++) bad |= co[i] != 1;
    MPI_Win_unlock_all(w);
    MPI_Win_free(&w);
    MPI_Win_unlock_all(w2);
    MPI_Win_free(&w2);
    if (bad) printf("ERROR: image 1 did not receive the data\n");
    return bad;
}
