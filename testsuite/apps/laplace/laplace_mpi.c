/* 2-D Laplace (Jacobi, 5-point), hand-written MPI C: the baseline for the XMP
 * versions. A PX x PY Cartesian process grid (PX along the contiguous i
 * dimension); each process holds its block plus a one-element halo. Row halos are
 * contiguous (MPI_DOUBLE runs), column halos use an MPI_Type_vector; see exchange()
 * for the two exchange modes (MPI_PROC_NULL at the edges).
 *   usage: mpiexec -n P laplace_mpi [NX NY ITER PX NHALO MODE]   (default 2048 2048 1000 1 200 1)
 *   PX = 1: block rows (laplace_xmp_rows); PX = P: block columns (all halos strided).
 * Prints the same lines as laplace_seq; `halo` is the time of the halo exchange,
 * `halo1` the median time of one exchange run NHALO times in isolation (each after
 * a barrier; the slowest process's median).
 */
#include <stdio.h>
#include <stdlib.h>

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
#include <mpi.h>

struct halo {
    MPI_Comm cart;
    MPI_Datatype col;
    int up, down, left, right, lnx, lny, px, mode, bytes;
    char *sl, *sr, *rl, *rr; /* packed column buffers (mode 1) */
};

/* One halo exchange of u (local layout: rows of w = lnx + 2, a halo ring of 1).
 * mode 1 (default): all receives and sends posted at once (MPI_Irecv/MPI_Isend,
 * MPI_Waitall); columns packed with MPI_Pack of the vector type and sent as bytes
 * (MPICH's shared-memory path for a non-contiguous send is much slower than
 * pack + contiguous send). mode 0: MPI_Sendrecv, columns sent with the vector type
 * directly (the textbook version). */
static void exchange(const struct halo *h, double *u, int w)
{
    double *first = u + w + 1, *last = u + (size_t)h->lny * w + 1;
    MPI_Request rq[8];
    MPI_Status st[8];
    int n = 0, pos;
    if (h->mode == 0) {
        MPI_Sendrecv(first, h->lnx, MPI_DOUBLE, h->up, 0, last + w, h->lnx, MPI_DOUBLE, h->down, 0, h->cart,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(last, h->lnx, MPI_DOUBLE, h->down, 1, first - w, h->lnx, MPI_DOUBLE, h->up, 1, h->cart,
                     MPI_STATUS_IGNORE);
        if (h->px > 1) {
            MPI_Sendrecv(first, 1, h->col, h->left, 2, first + h->lnx, 1, h->col, h->right, 2, h->cart,
                         MPI_STATUS_IGNORE);
            MPI_Sendrecv(first + h->lnx - 1, 1, h->col, h->right, 3, first - 1, 1, h->col, h->left, 3, h->cart,
                         MPI_STATUS_IGNORE);
        }
        return;
    }
    MPI_Irecv(last + w, h->lnx, MPI_DOUBLE, h->down, 0, h->cart, &rq[n++]);
    MPI_Irecv(first - w, h->lnx, MPI_DOUBLE, h->up, 1, h->cart, &rq[n++]);
    if (h->px > 1) {
        MPI_Irecv(h->rr, h->bytes, MPI_PACKED, h->right, 2, h->cart, &rq[n++]);
        MPI_Irecv(h->rl, h->bytes, MPI_PACKED, h->left, 3, h->cart, &rq[n++]);
        if (h->left != MPI_PROC_NULL) {
            pos = 0;
            MPI_Pack(first, 1, h->col, h->sl, h->bytes, &pos, h->cart);
        }
        if (h->right != MPI_PROC_NULL) {
            pos = 0;
            MPI_Pack(first + h->lnx - 1, 1, h->col, h->sr, h->bytes, &pos, h->cart);
        }
        MPI_Isend(h->sl, h->bytes, MPI_PACKED, h->left, 2, h->cart, &rq[n++]);
        MPI_Isend(h->sr, h->bytes, MPI_PACKED, h->right, 3, h->cart, &rq[n++]);
    }
    MPI_Isend(first, h->lnx, MPI_DOUBLE, h->up, 0, h->cart, &rq[n++]);
    MPI_Isend(last, h->lnx, MPI_DOUBLE, h->down, 1, h->cart, &rq[n++]);
    MPI_Waitall(n, rq, st);
    if (h->px > 1) {
        if (h->right != MPI_PROC_NULL) {
            pos = 0;
            MPI_Unpack(h->rr, h->bytes, &pos, first + h->lnx, 1, h->col, h->cart);
        }
        if (h->left != MPI_PROC_NULL) {
            pos = 0;
            MPI_Unpack(h->rl, h->bytes, &pos, first - 1, 1, h->col, h->cart);
        }
    }
}

static void split(int n, int parts, int r, int *lo, int *len)
{
    int c = (n + parts - 1) / parts; /* the XMP block rule: ceil(n/P) */
    *lo = r * c;
    *len = *lo >= n ? 0 : (*lo + c > n ? n - *lo : c);
}

int main(int argc, char **argv)
{
    int nx, ny, iter, px, py, np, rank, dims[2], periods[2] = {0, 0}, coords[2];
    int i0, lnx, j0, lny, i, j, k, up, down, left, right, w;
    double *u, *uu, t0, t1, th, halo = 0, sum = 0, pt = 0, gsum, gpt, ghalo, h1 = 0, gh1;
    int nh;
    struct halo hx;
    MPI_Comm cart;
    MPI_Datatype col;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    nx = argc > 1 ? atoi(argv[1]) : 2048;
    ny = argc > 2 ? atoi(argv[2]) : 2048;
    iter = argc > 3 ? atoi(argv[3]) : 1000;
    px = argc > 4 ? atoi(argv[4]) : 1;
    nh = argc > 5 ? atoi(argv[5]) : 200;
    hx.mode = argc > 6 ? atoi(argv[6]) : 1;
    if (px < 1 || np % px) {
        fprintf(stderr, "laplace_mpi: PX=%d does not divide %d processes\n", px, np);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    py = np / px;
    dims[0] = py; /* dim 0: rows (j), dim 1: columns (i) */
    dims[1] = px;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_coords(cart, rank, 2, coords);
    MPI_Cart_shift(cart, 0, 1, &up, &down);
    MPI_Cart_shift(cart, 1, 1, &left, &right);
    split(ny, py, coords[0], &j0, &lny);
    split(nx, px, coords[1], &i0, &lnx);
    w = lnx + 2;
    u = malloc(sizeof(double) * (size_t)w * (lny + 2));
    uu = malloc(sizeof(double) * (size_t)w * (lny + 2));
#define U(j, i) u[(size_t)((j) - j0 + 1) * w + ((i) - i0 + 1)]
#define UU(j, i) uu[(size_t)((j) - j0 + 1) * w + ((i) - i0 + 1)]
    MPI_Type_vector(lny, 1, w, MPI_DOUBLE, &col);
    MPI_Type_commit(&col);
    hx.cart = cart; hx.col = col; hx.up = up; hx.down = down; hx.left = left; hx.right = right;
    hx.lnx = lnx; hx.lny = lny; hx.px = px;
    MPI_Pack_size(1, col, cart, &hx.bytes);
    hx.sl = malloc(hx.bytes); hx.sr = malloc(hx.bytes); hx.rl = malloc(hx.bytes); hx.rr = malloc(hx.bytes);
    for (j = j0 - 1; j <= j0 + lny; j++)
        for (i = i0 - 1; i <= i0 + lnx; i++)
            U(j, i) = UU(j, i) = 0;
    for (j = j0; j < j0 + lny; j++)
        for (i = i0; i < i0 + lnx; i++)
            U(j, i) = UU(j, i) = j == 0 ? 1.0 : i == 0 ? 0.5 : 0.0;
    {
        int jlo = j0 < 1 ? 1 : j0, jhi = j0 + lny > ny - 1 ? ny - 1 : j0 + lny;
        int ilo = i0 < 1 ? 1 : i0, ihi = i0 + lnx > nx - 1 ? nx - 1 : i0 + lnx;
        MPI_Barrier(cart);
        t0 = MPI_Wtime();
        for (k = 0; k < iter; k++) {
            th = MPI_Wtime();
            exchange(&hx, u, w);
            halo += MPI_Wtime() - th;
            for (j = jlo; j < jhi; j++)
                for (i = ilo; i < ihi; i++)
                    UU(j, i) = 0.25 * (U(j - 1, i) + U(j + 1, i) + U(j, i - 1) + U(j, i + 1));
            for (j = jlo; j < jhi; j++)
                for (i = ilo; i < ihi; i++)
                    U(j, i) = UU(j, i);
        }
        MPI_Barrier(cart);
        t1 = MPI_Wtime();
    }
    for (j = j0; j < j0 + lny; j++)
        for (i = i0; i < i0 + lnx; i++) {
            sum += U(j, i);
            if (j == ny / 3 && i == nx / 3)
                pt = U(j, i);
        }
    MPI_Reduce(&sum, &gsum, 1, MPI_DOUBLE, MPI_SUM, 0, cart);
    MPI_Reduce(&pt, &gpt, 1, MPI_DOUBLE, MPI_SUM, 0, cart);
    if (nh > 0) {
        double *smp = malloc(sizeof(double) * nh);
        for (k = 0; k < nh; k++) {
            MPI_Barrier(cart);
            th = MPI_Wtime();
            exchange(&hx, u, w);
            smp[k] = MPI_Wtime() - th;
        }
        qsort(smp, nh, sizeof(double), cmpd);
        h1 = smp[nh / 2];
        free(smp);
    }
    MPI_Reduce(&halo, &ghalo, 1, MPI_DOUBLE, MPI_MAX, 0, cart);
    MPI_Reduce(&h1, &gh1, 1, MPI_DOUBLE, MPI_MAX, 0, cart);
    if (rank == 0) {
        printf("laplace mpi %dx%d iter %d procs %d px %d mode %d\n", nx, ny, iter, np, px, hx.mode);
        printf("time %.6f\nhalo %.6f\nchecksum %.15e\npoint %.15e\n", t1 - t0, ghalo, gsum, gpt);
        printf("halo1 %.9f\n", gh1);
    }
    MPI_Type_free(&col);
    free(hx.sl); free(hx.sr); free(hx.rl); free(hx.rr);
    MPI_Comm_free(&cart);
    free(u);
    free(uu);
    MPI_Finalize();
    return 0;
}
