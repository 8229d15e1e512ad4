/* 2-D Laplace (Jacobi, 5-point), hand-written MPI C: the baseline for the XMP
 * versions. A PX x PY Cartesian process grid (PX along the contiguous i
 * dimension); each process holds its block plus a one-element halo. Written as an
 * expert would (issue 22: the first version took 1.17-1.24x the sequential time on
 * one process):
 *  - the sweep is a function of restrict-qualified rows with the sequential
 *    program's loop form (a stencil nest into uu, a copy nest back into u), so the
 *    compiler needs no alias checks;
 *  - u and uu share one block (2 MiB-aligned, huge pages advised, as xmpc's
 *    runtime does for its arrays), uu starting 5 cache lines further
 *    modulo 4 KiB than u (two page-aligned mallocs put u[j][i] and uu[j][i] at the
 *    same address modulo 4 KiB: the stores to uu then falsely wait on the loads of
 *    u they alias);
 *  - halos: persistent requests made once (MPI_Recv_init/MPI_Send_init), each
 *    exchange MPI_Startall + MPI_Waitall; rows are sent and received in place
 *    (contiguous MPI_DOUBLE runs), columns through contiguous buffers filled and
 *    emptied by plain loops (MPICH's shared-memory path for a vector datatype took
 *    66 us per 2048-double column exchange, 2 bound processes, against 23 us with
 *    packing); MPI_PROC_NULL at the edges. That is MODE 1 (default). MODE 0: four
 *    MPI_Sendrecv with an MPI_Type_vector for columns (the textbook version).
 *   compile: mpicc -O2 laplace_mpi.c -o laplace_mpi (the table uses the native
 *            flags xmpc -O2 passes, testsuite/bench/apps/table.sh)
 *   usage:   mpiexec -n P laplace_mpi [NX NY ITER PX NHALO MODE]   (default 2048 2048 1000 1 200 1)
 *   PX = 1: block rows (laplace_xmp_rows); PX = P: block columns (all halos strided).
 * Built with -fopenacc (the expert baseline of laplace_xacc), u and uu stay in
 * accelerator memory for the whole run (see the _OPENACC section below); MODE 1 only.
 * Prints the same lines as laplace_seq; `halo` is the time of the halo exchange,
 * `halo1` the median time of one exchange run NHALO times in isolation (each after
 * a barrier; the slowest process's median).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/mman.h>
#include <mpi.h>

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The halo exchange of u: 8 persistent requests (mode 1) or the 4 Sendrecv of mode 0. */
struct halo {
    MPI_Comm cart;
    MPI_Datatype col;
    int up, down, left, right, lnx, lny, w, px, mode, n;
    MPI_Request rq[8];
    double *sl, *sr, *rl, *rr; /* column buffers (mode 1, px > 1) */
};

static void halo_init(struct halo *h, double *u)
{
    double *first = u + h->w + 1, *last = u + (size_t)h->lny * h->w + 1;
    int w = h->w;
    h->n = 0;
    if (h->mode == 0)
        return;
    MPI_Recv_init(last + w, h->lnx, MPI_DOUBLE, h->down, 0, h->cart, &h->rq[h->n++]);
    MPI_Recv_init(first - w, h->lnx, MPI_DOUBLE, h->up, 1, h->cart, &h->rq[h->n++]);
    if (h->px > 1) {
        h->sl = malloc(4 * sizeof(double) * (size_t)h->lny);
        h->sr = h->sl + h->lny;
        h->rl = h->sr + h->lny;
        h->rr = h->rl + h->lny;
        MPI_Recv_init(h->rr, h->lny, MPI_DOUBLE, h->right, 2, h->cart, &h->rq[h->n++]);
        MPI_Recv_init(h->rl, h->lny, MPI_DOUBLE, h->left, 3, h->cart, &h->rq[h->n++]);
        MPI_Send_init(h->sl, h->lny, MPI_DOUBLE, h->left, 2, h->cart, &h->rq[h->n++]);
        MPI_Send_init(h->sr, h->lny, MPI_DOUBLE, h->right, 3, h->cart, &h->rq[h->n++]);
    }
    MPI_Send_init(first, h->lnx, MPI_DOUBLE, h->up, 0, h->cart, &h->rq[h->n++]);
    MPI_Send_init(last, h->lnx, MPI_DOUBLE, h->down, 1, h->cart, &h->rq[h->n++]);
}

static void exchange(struct halo *h, double *u)
{
    double *first = u + h->w + 1, *last = u + (size_t)h->lny * h->w + 1;
    int w = h->w;
    if (h->mode != 0) {
        MPI_Status st[8];
        int j, lnx = h->lnx, lny = h->lny;
        if (h->px > 1)
            for (j = 0; j < lny; j++) {
                h->sl[j] = first[(size_t)j * w];
                h->sr[j] = first[(size_t)j * w + lnx - 1];
            }
        MPI_Startall(h->n, h->rq);
        MPI_Waitall(h->n, h->rq, st);
        if (h->px > 1) {
            if (h->right != MPI_PROC_NULL)
                for (j = 0; j < lny; j++)
                    first[(size_t)j * w + lnx] = h->rr[j];
            if (h->left != MPI_PROC_NULL)
                for (j = 0; j < lny; j++)
                    first[(size_t)j * w - 1] = h->rl[j];
        }
        return;
    }
    MPI_Sendrecv(first, h->lnx, MPI_DOUBLE, h->up, 0, last + w, h->lnx, MPI_DOUBLE, h->down, 0, h->cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(last, h->lnx, MPI_DOUBLE, h->down, 1, first - w, h->lnx, MPI_DOUBLE, h->up, 1, h->cart, MPI_STATUS_IGNORE);
    if (h->px > 1) {
        MPI_Sendrecv(first, 1, h->col, h->left, 2, first + h->lnx, 1, h->col, h->right, 2, h->cart, MPI_STATUS_IGNORE);
        MPI_Sendrecv(first + h->lnx - 1, 1, h->col, h->right, 3, first - 1, 1, h->col, h->left, 3, h->cart,
                     MPI_STATUS_IGNORE);
    }
}

static void halo_free(struct halo *h)
{
    for (int q = 0; q < h->n; q++)
        MPI_Request_free(&h->rq[q]);
    if (h->mode != 0 && h->px > 1)
        free(h->sl);
}

#ifdef _OPENACC
/* The OpenACC build: the pool (u and uu) is copied to the device once and stays
 * there; the sweep is two device kernels; an exchange moves only what crosses:
 * the rows it sends go to the host (acc update self) and the rows it received go
 * back (acc update device); the columns are packed and unpacked by device kernels
 * into a device copy of the column buffers, so 2 x lny doubles per side cross
 * instead of the block. Kernels index from u (a pointer into device memory inside
 * them), never from a host pointer derived from it. With GCC's host fallback (no
 * GPU) the updates do nothing and the kernels run on the host. */
static void sweep_acc(size_t n, size_t w, int jlo, int jhi, int ilo, int ihi, double *u, double *uu)
{
    int i, j;
#pragma acc parallel loop gang vector_length(256) present(u[0:n], uu[0:n])
    for (j = jlo; j < jhi; j++)
#pragma acc loop vector
        for (i = ilo; i < ihi; i++)
            uu[j * w + i] = 0.25 * (u[(j - 1) * w + i] + u[(j + 1) * w + i] + u[j * w + i - 1] + u[j * w + i + 1]);
#pragma acc parallel loop gang vector_length(256) present(u[0:n], uu[0:n])
    for (j = jlo; j < jhi; j++)
#pragma acc loop vector
        for (i = ilo; i < ihi; i++)
            u[j * w + i] = uu[j * w + i];
}

static void exchange_acc(struct halo *h, double *u, size_t n)
{
    size_t w = h->w;
    int j, lnx = h->lnx, lny = h->lny;
    double *buf = h->sl; /* sl, sr, rl, rr: lny doubles each */
    MPI_Status st[8];
    if (h->up != MPI_PROC_NULL) {
#pragma acc update self(u[w + 1:lnx])
    }
    if (h->down != MPI_PROC_NULL) {
#pragma acc update self(u[lny * w + 1:lnx])
    }
    if (h->px > 1) {
#pragma acc parallel loop present(u[0:n], buf[0:4 * lny])
        for (j = 0; j < lny; j++) {
            buf[j] = u[(j + 1) * w + 1];
            buf[lny + j] = u[(j + 1) * w + lnx];
        }
#pragma acc update self(buf[0:2 * lny])
    }
    MPI_Startall(h->n, h->rq);
    MPI_Waitall(h->n, h->rq, st);
    if (h->up != MPI_PROC_NULL) {
#pragma acc update device(u[1:lnx])
    }
    if (h->down != MPI_PROC_NULL) {
#pragma acc update device(u[(lny + 1) * w + 1:lnx])
    }
    if (h->px > 1) {
        int l = h->left != MPI_PROC_NULL, r = h->right != MPI_PROC_NULL;
#pragma acc update device(buf[2 * lny:2 * lny])
#pragma acc parallel loop present(u[0:n], buf[0:4 * lny])
        for (j = 0; j < lny; j++) {
            if (l)
                u[(j + 1) * w] = buf[2 * lny + j];
            if (r)
                u[(j + 1) * w + lnx + 1] = buf[3 * lny + j];
        }
    }
}
#endif

/* One Jacobi step over local rows [jlo, jhi) and columns [ilo, ihi) (local
 * indices, the halo ring at 0 and lnx + 1 / lny + 1): the sequential loop form. */
static void sweep(ptrdiff_t w, int jlo, int jhi, int ilo, int ihi, double *restrict u, double *restrict uu)
{
    int i, j;
    for (j = jlo; j < jhi; j++) {
        const double *n = u + (j - 1) * w, *c = u + j * w, *s = u + (j + 1) * w;
        double *o = uu + j * w;
        for (i = ilo; i < ihi; i++)
            o[i] = 0.25 * (n[i] + s[i] + c[i - 1] + c[i + 1]);
    }
    for (j = jlo; j < jhi; j++) {
        double *o = u + j * w;
        const double *c = uu + j * w;
        for (i = ilo; i < ihi; i++)
            o[i] = c[i];
    }
}

/* The pool: on 2 MiB boundaries, huge pages advised before the first touch (as the
 * xmpc runtime does for its blocks): a stencil streaming many arrays otherwise takes
 * a TLB miss per 4 KiB page and stream, each a two-level walk under virtualisation. */
static void *pool(size_t bytes)
{
    size_t huge = (size_t)2 << 20;
    void *p;
    bytes = (bytes + huge - 1) / huge * huge;
    p = aligned_alloc(huge, bytes);
    if (p)
        madvise(p, bytes, MADV_HUGEPAGE);
    return p;
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
    int i0, lnx, j0, lny, i, j, k, w, nh;
    double *u, *uu, t0, t1, th, halo = 0, sum = 0, pt = 0, gsum, gpt, ghalo, h1 = 0, gh1;
    size_t cells, stride;
    clock_t cp0, cp1; /* CPU time of the timed loop (this process) */
    struct halo hx;
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
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &hx.cart);
    MPI_Comm_rank(hx.cart, &rank);
    MPI_Cart_coords(hx.cart, rank, 2, coords);
    MPI_Cart_shift(hx.cart, 0, 1, &hx.up, &hx.down);
    MPI_Cart_shift(hx.cart, 1, 1, &hx.left, &hx.right);
    split(ny, py, coords[0], &j0, &lny);
    split(nx, px, coords[1], &i0, &lnx);
    w = lnx + 2;
    cells = (size_t)w * (lny + 2);
    /* uu at `stride` doubles after u: cells rounded up to 4 KiB, plus 320 bytes */
    stride = (cells + 511) / 512 * 512 + 40;
    u = pool((stride + cells) * sizeof(double));
    if (!u) {
        fprintf(stderr, "laplace_mpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    uu = u + stride;
#define U(j, i) u[(size_t)((j) - j0 + 1) * w + ((i) - i0 + 1)]
    for (size_t x = 0; x < cells; x++)
        u[x] = uu[x] = 0;
    for (j = j0; j < j0 + lny; j++)
        for (i = i0; i < i0 + lnx; i++)
            U(j, i) = uu[(size_t)(j - j0 + 1) * w + (i - i0 + 1)] = j == 0 ? 1.0 : i == 0 ? 0.5 : 0.0;
    MPI_Type_vector(lny, 1, w, MPI_DOUBLE, &hx.col);
    MPI_Type_commit(&hx.col);
    hx.lnx = lnx;
    hx.lny = lny;
    hx.w = w;
    hx.px = px;
    halo_init(&hx, u);
#ifdef _OPENACC
    (void)exchange; /* the host versions: unused in this build */
    (void)sweep;
    if (hx.mode == 0) {
        fprintf(stderr, "laplace_mpi: the OpenACC build has MODE 1 only\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
#pragma acc enter data copyin(u[0:stride + cells])
    if (px > 1) {
        double *buf = hx.sl; /* GCC 12 -Wall calls it unused: its data clauses do not count */
#pragma acc enter data create(buf[0:4 * lny])
        (void)buf;
    }
#endif
    {
        /* the interior of the global grid, in local indices */
        int jlo = (j0 < 1 ? 1 : j0) - j0 + 1, jhi = (j0 + lny > ny - 1 ? ny - 1 : j0 + lny) - j0 + 1;
        int ilo = (i0 < 1 ? 1 : i0) - i0 + 1, ihi = (i0 + lnx > nx - 1 ? nx - 1 : i0 + lnx) - i0 + 1;
        MPI_Barrier(hx.cart);
        t0 = MPI_Wtime();
        cp0 = clock();
        for (k = 0; k < iter; k++) {
            th = MPI_Wtime();
#ifdef _OPENACC
            exchange_acc(&hx, u, cells);
            halo += MPI_Wtime() - th;
            sweep_acc(cells, w, jlo, jhi, ilo, ihi, u, uu);
#else
            exchange(&hx, u);
            halo += MPI_Wtime() - th;
            sweep(w, jlo, jhi, ilo, ihi, u, uu);
#endif
        }
        MPI_Barrier(hx.cart);
        t1 = MPI_Wtime();
        cp1 = clock();
    }
#ifdef _OPENACC
#pragma acc update self(u[0:cells])
#endif
    for (j = j0; j < j0 + lny; j++)
        for (i = i0; i < i0 + lnx; i++) {
            sum += U(j, i);
            if (j == ny / 3 && i == nx / 3)
                pt = U(j, i);
        }
    MPI_Reduce(&sum, &gsum, 1, MPI_DOUBLE, MPI_SUM, 0, hx.cart);
    MPI_Reduce(&pt, &gpt, 1, MPI_DOUBLE, MPI_SUM, 0, hx.cart);
    if (nh > 0) {
        double *smp = malloc(sizeof(double) * nh);
        for (k = 0; k < nh; k++) {
            MPI_Barrier(hx.cart);
            th = MPI_Wtime();
#ifdef _OPENACC
            exchange_acc(&hx, u, cells);
#else
            exchange(&hx, u);
#endif
            smp[k] = MPI_Wtime() - th;
        }
        qsort(smp, nh, sizeof(double), cmpd);
        h1 = smp[nh / 2];
        free(smp);
    }
    MPI_Reduce(&halo, &ghalo, 1, MPI_DOUBLE, MPI_MAX, 0, hx.cart);
    MPI_Reduce(&h1, &gh1, 1, MPI_DOUBLE, MPI_MAX, 0, hx.cart);
    if (rank == 0) {
        printf("laplace mpi %dx%d iter %d procs %d px %d mode %d\n", nx, ny, iter, np, px, hx.mode);
        printf("time %.6f\nhalo %.6f\nchecksum %.15e\npoint %.15e\n", t1 - t0, ghalo, gsum, gpt);
        printf("cpu %.6f\n", (double)(cp1 - cp0) / CLOCKS_PER_SEC);
        printf("halo1 %.9f\n", gh1);
    }
#ifdef _OPENACC
    if (px > 1) {
        double *buf = hx.sl;
#pragma acc exit data delete(buf[0:4 * lny])
        (void)buf;
    }
#pragma acc exit data delete(u[0:stride + cells])
#endif
    halo_free(&hx);
    MPI_Type_free(&hx.col);
    MPI_Comm_free(&hx.cart);
    free(u);
    MPI_Finalize();
    return 0;
}
