/* Himeno benchmark, hand-written MPI C: the baseline for the XMP versions.
 * A PI x PJ process grid over the i and j dimensions (k stays whole and
 * contiguous). Each process holds its block plus one halo layer in i and j.
 * Halo exchange with MPI_Sendrecv: j halos first (an MPI_Type_vector of k-runs,
 * no packing loop) over the owned i range, then i halos (contiguous planes that
 * include the j halos, which fills the corners the diagonal terms need).
 * Written as an expert would (issue 22: the first version took 2.5-2.9x the
 * sequential time on one process): the 14 arrays share one block (2 MiB-aligned,
 * huge pages advised, as xmpc's runtime does for its arrays),
 * each starting 320 bytes (5 cache lines) further modulo 4 KiB than the one before,
 * so the stencil's 22 streams do not fall into one L1 set (separate callocs are
 * page-aligned mmaps: every array at the same address modulo 4 KiB; cachegrind
 * counted 3.4x the sequential program's L1 misses); the stencil is a function of
 * restrict-qualified arrays, so the compiler keeps p's values in registers across
 * the wrk2 store, as for the sequential program's distinct static arrays.
 *   compile: mpicc -O2 [-DSIZE_MIDDLE] himeno_mpi.c -o himeno_mpi
 *   usage:   mpiexec -n P himeno_mpi [NN PJ]   (default 100 iterations, PJ = 1)
 *   PJ = 1: planes along i only (himeno_xmp_1d); PJ = P: j only (all halos strided).
 * Built with -fopenacc (the expert baseline of himeno_xacc), the arrays stay in
 * accelerator memory for the whole run (see the _OPENACC section below).
 * Prints the same lines as himeno_seq; `halo` is the time of the halo exchange.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/mman.h>
#include <mpi.h>
#include "himeno_common.h"

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
    int c = (n + parts - 1) / parts; /* the XMP block rule */
    *lo = r * c;
    *len = *lo >= n ? 0 : (*lo + c > n ? n - *lo : c);
}

enum { P, BND, WRK1, WRK2, A0, A1, A2, A3, B0, B1, B2, C0, C1, C2, NARR };

/* One Jacobi sweep over local [lilo, lihi) x [ljlo, ljhi) x [1, kmax - 1) (local
 * index [i - i0 + 1][j - j0 + 1][k]); returns the local sum of squared residuals. */
static float jacobi(int nj, int lilo, int lihi, int ljlo, int ljhi, int kmax, float (*restrict p)[nj][MKMAX],
                    const float (*restrict a0)[nj][MKMAX], const float (*restrict a1)[nj][MKMAX],
                    const float (*restrict a2)[nj][MKMAX], const float (*restrict a3)[nj][MKMAX],
                    const float (*restrict b0)[nj][MKMAX], const float (*restrict b1)[nj][MKMAX],
                    const float (*restrict b2)[nj][MKMAX], const float (*restrict c0)[nj][MKMAX],
                    const float (*restrict c1)[nj][MKMAX], const float (*restrict c2)[nj][MKMAX],
                    const float (*restrict wrk1)[nj][MKMAX], float (*restrict wrk2)[nj][MKMAX],
                    const float (*restrict bnd)[nj][MKMAX])
{
    float gosa = 0, s0, ss;
    int i, j, k;
    for (i = lilo; i < lihi; i++)
        for (j = ljlo; j < ljhi; j++)
            for (k = 1; k < kmax - 1; k++) {
                s0 = a0[i][j][k] * p[i + 1][j][k] + a1[i][j][k] * p[i][j + 1][k] + a2[i][j][k] * p[i][j][k + 1]
                   + b0[i][j][k] * (p[i + 1][j + 1][k] - p[i + 1][j - 1][k] - p[i - 1][j + 1][k] + p[i - 1][j - 1][k])
                   + b1[i][j][k] * (p[i][j + 1][k + 1] - p[i][j - 1][k + 1] - p[i][j + 1][k - 1] + p[i][j - 1][k - 1])
                   + b2[i][j][k] * (p[i + 1][j][k + 1] - p[i - 1][j][k + 1] - p[i + 1][j][k - 1] + p[i - 1][j][k - 1])
                   + c0[i][j][k] * p[i - 1][j][k] + c1[i][j][k] * p[i][j - 1][k] + c2[i][j][k] * p[i][j][k - 1]
                   + wrk1[i][j][k];
                ss = (s0 * a3[i][j][k] - p[i][j][k]) * bnd[i][j][k];
                gosa += ss * ss;
                wrk2[i][j][k] = p[i][j][k] + HIMENO_OMEGA * ss;
            }
    for (i = lilo; i < lihi; i++)
        for (j = ljlo; j < ljhi; j++)
            for (k = 1; k < kmax - 1; k++)
                p[i][j][k] = wrk2[i][j][k];
    return gosa;
}

#ifdef _OPENACC
/* The OpenACC build: the pool of the 14 arrays is copied to the device once and
 * stays there; the sweep and the copy are device kernels (gosa a device reduction);
 * an exchange moves only what crosses. The j faces (k-runs of every owned i plane)
 * are packed by a device kernel into a device copy of four contiguous buffers (send
 * left, send right, receive left, receive right; lni x MKMAX floats each), the two
 * send buffers go to the host, MPI_Sendrecv moves them, the received ones go back and
 * a device kernel unpacks them; then the i planes (contiguous, the j halos included,
 * which fills the corners) go to the host, are exchanged and go back. Array q of the
 * pool starts at q * stride; kernels index from the pool pointer. With GCC's host
 * fallback (no GPU) the updates do nothing and the kernels run on the host. */
#define AT(q, i, j, k) blk[(size_t)(q) * stride + ((size_t)(i) * nj + (j)) * MKMAX + (k)]
static float jacobi_acc(float *blk, size_t stride, size_t sz, int nj, int lilo, int lihi, int ljlo, int ljhi, int kmax)
{
    float gosa = 0, s0, ss;
    int i, j, k;
    size_t n = (NARR - 1) * stride + sz;
#pragma acc parallel loop collapse(2) gang vector_length(64) reduction(+:gosa) present(blk[0:n])
    for (i = lilo; i < lihi; i++)
        for (j = ljlo; j < ljhi; j++)
#pragma acc loop vector reduction(+:gosa) private(s0, ss)
            for (k = 1; k < kmax - 1; k++) {
                s0 = AT(A0, i, j, k) * AT(P, i + 1, j, k) + AT(A1, i, j, k) * AT(P, i, j + 1, k)
                   + AT(A2, i, j, k) * AT(P, i, j, k + 1)
                   + AT(B0, i, j, k) * (AT(P, i + 1, j + 1, k) - AT(P, i + 1, j - 1, k) - AT(P, i - 1, j + 1, k)
                                        + AT(P, i - 1, j - 1, k))
                   + AT(B1, i, j, k) * (AT(P, i, j + 1, k + 1) - AT(P, i, j - 1, k + 1) - AT(P, i, j + 1, k - 1)
                                        + AT(P, i, j - 1, k - 1))
                   + AT(B2, i, j, k) * (AT(P, i + 1, j, k + 1) - AT(P, i - 1, j, k + 1) - AT(P, i + 1, j, k - 1)
                                        + AT(P, i - 1, j, k - 1))
                   + AT(C0, i, j, k) * AT(P, i - 1, j, k) + AT(C1, i, j, k) * AT(P, i, j - 1, k)
                   + AT(C2, i, j, k) * AT(P, i, j, k - 1) + AT(WRK1, i, j, k);
                ss = (s0 * AT(A3, i, j, k) - AT(P, i, j, k)) * AT(BND, i, j, k);
                gosa += ss * ss;
                AT(WRK2, i, j, k) = AT(P, i, j, k) + HIMENO_OMEGA * ss;
            }
#pragma acc parallel loop collapse(2) gang vector_length(64) present(blk[0:n])
    for (i = lilo; i < lihi; i++)
        for (j = ljlo; j < ljhi; j++)
#pragma acc loop vector
            for (k = 1; k < kmax - 1; k++)
                AT(P, i, j, k) = AT(WRK2, i, j, k);
    return gosa;
}

/* The halo exchange of p (local planes 0 and lni + 1, columns 0 and lnj + 1). */
static void exchange_acc(float *blk, float *jb, size_t stride, int lni, int lnj, int nj, int up, int down, int left,
                         int right, MPI_Comm cart)
{
    size_t plane = (size_t)nj * MKMAX, face = (size_t)lni * MKMAX;
    int i, k;
    if (left != MPI_PROC_NULL || right != MPI_PROC_NULL) {
#pragma acc parallel loop collapse(2) present(blk[0:(lni + 2) * plane], jb[0:4 * face])
        for (i = 0; i < lni; i++)
            for (k = 0; k < MKMAX; k++) {
                jb[(size_t)i * MKMAX + k] = AT(P, i + 1, 1, k);
                jb[face + (size_t)i * MKMAX + k] = AT(P, i + 1, lnj, k);
            }
#pragma acc update self(jb[0:2 * face])
        MPI_Sendrecv(jb, (int)face, MPI_FLOAT, left, 0, jb + 3 * face, (int)face, MPI_FLOAT, right, 0, cart,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(jb + face, (int)face, MPI_FLOAT, right, 1, jb + 2 * face, (int)face, MPI_FLOAT, left, 1, cart,
                     MPI_STATUS_IGNORE);
#pragma acc update device(jb[2 * face:2 * face])
#pragma acc parallel loop collapse(2) present(blk[0:(lni + 2) * plane], jb[0:4 * face])
        for (i = 0; i < lni; i++)
            for (k = 0; k < MKMAX; k++) {
                if (left != MPI_PROC_NULL)
                    AT(P, i + 1, 0, k) = jb[2 * face + (size_t)i * MKMAX + k];
                if (right != MPI_PROC_NULL)
                    AT(P, i + 1, lnj + 1, k) = jb[3 * face + (size_t)i * MKMAX + k];
            }
    }
    if (up != MPI_PROC_NULL) {
#pragma acc update self(blk[plane:plane])
    }
    if (down != MPI_PROC_NULL) {
#pragma acc update self(blk[lni * plane:plane])
    }
    MPI_Sendrecv(blk + plane, (int)plane, MPI_FLOAT, up, 2, blk + (lni + 1) * plane, (int)plane, MPI_FLOAT, down, 2, cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(blk + lni * plane, (int)plane, MPI_FLOAT, down, 3, blk, (int)plane, MPI_FLOAT, up, 3, cart,
                 MPI_STATUS_IGNORE);
    if (down != MPI_PROC_NULL) {
#pragma acc update device(blk[(lni + 1) * plane:plane])
    }
    if (up != MPI_PROC_NULL) {
#pragma acc update device(blk[0:plane])
    }
}
#undef AT
#endif

int main(int argc, char **argv)
{
    int nn, pj, pi, np, rank, dims[2], periods[2] = {0, 0}, coords[2], n, i, j, k, q;
    int i0, lni, j0, lnj, nj, up, down, left, right;
    const int imax = MIMAX - 1, jmax = MJMAX - 1, kmax = MKMAX - 1;
    float *arr[NARR], *block, gosa = 0, lgosa;
    double t0, t1, th, halo = 0, sum = 0, gsum, ghalo;
    clock_t cp0, cp1; /* CPU time of the timed loop (this process) */
    size_t sz, stride;
    MPI_Comm cart;
    MPI_Datatype jplane;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    nn = argc > 1 ? atoi(argv[1]) : 100;
    pj = argc > 2 ? atoi(argv[2]) : 1;
    if (pj < 1 || np % pj) {
        fprintf(stderr, "himeno_mpi: PJ=%d does not divide %d processes\n", pj, np);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    pi = np / pj;
    dims[0] = pi;
    dims[1] = pj;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_coords(cart, rank, 2, coords);
    MPI_Cart_shift(cart, 0, 1, &up, &down);
    MPI_Cart_shift(cart, 1, 1, &left, &right);
    split(MIMAX, pi, coords[0], &i0, &lni);
    split(MJMAX, pj, coords[1], &j0, &lnj);
    nj = lnj + 2;
    sz = (size_t)(lni + 2) * nj * MKMAX;
    /* array q at q * stride floats: stride = sz rounded up to 4 KiB, plus 320 bytes */
    stride = (sz + 1023) / 1024 * 1024 + 80;
    block = pool(NARR * stride * sizeof(float));
    if (!block) {
        fprintf(stderr, "himeno_mpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (q = 0; q < NARR; q++) {
        arr[q] = block + q * stride;
        for (size_t x = 0; x < sz; x++)
            arr[q][x] = 0.0f;
    }
    /* global (i, j, k) -> local storage */
#define X(a, i, j, k) arr[a][((size_t)((i) - i0 + 1) * nj + ((j) - j0 + 1)) * MKMAX + (k)]
    MPI_Type_vector(lni, MKMAX, nj * MKMAX, MPI_FLOAT, &jplane);
    MPI_Type_commit(&jplane);
    for (i = i0; i < i0 + lni; i++)
        for (j = j0; j < j0 + lnj; j++)
            for (k = 0; k < MKMAX; k++) {
                X(A0, i, j, k) = X(A1, i, j, k) = X(A2, i, j, k) = 1.0f;
                X(A3, i, j, k) = 1.0f / 6.0f;
                X(B0, i, j, k) = X(B1, i, j, k) = X(B2, i, j, k) = 0.0f;
                X(C0, i, j, k) = X(C1, i, j, k) = X(C2, i, j, k) = 1.0f;
                X(P, i, j, k) = (float)(i * i) / (float)((imax - 1) * (imax - 1));
                X(WRK1, i, j, k) = X(WRK2, i, j, k) = 0.0f;
                X(BND, i, j, k) = 1.0f;
            }
#ifdef _OPENACC
    (void)jacobi; /* the host sweep: unused in this build */
    float *jb = malloc(4 * sizeof(float) * lni * MKMAX); /* the j faces: see exchange_acc */
    if (!jb) {
        fprintf(stderr, "himeno_mpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
#pragma acc enter data copyin(block[0:(NARR - 1) * stride + sz]) create(jb[0:4 * lni * MKMAX])
#endif
    {
        int ilo = i0 < 1 ? 1 : i0, ihi = i0 + lni > imax - 1 ? imax - 1 : i0 + lni;
        int jlo = j0 < 1 ? 1 : j0, jhi = j0 + lnj > jmax - 1 ? jmax - 1 : j0 + lnj;
        int plane = nj * MKMAX;
#ifdef _OPENACC
        (void)plane;
#endif
        MPI_Barrier(cart);
        t0 = MPI_Wtime();
        cp0 = clock();
        for (n = 0; n < nn; n++) {
            th = MPI_Wtime();
#ifdef _OPENACC
            exchange_acc(block, jb, stride, lni, lnj, nj, up, down, left, right, cart);
            halo += MPI_Wtime() - th;
            lgosa = jacobi_acc(block, stride, sz, nj, ilo - i0 + 1, ihi - i0 + 1, jlo - j0 + 1, jhi - j0 + 1, kmax);
#else
            if (pj > 1) {
                MPI_Sendrecv(&X(P, i0, j0, 0), 1, jplane, left, 0, &X(P, i0, j0 + lnj, 0), 1, jplane, right, 0, cart,
                             MPI_STATUS_IGNORE);
                MPI_Sendrecv(&X(P, i0, j0 + lnj - 1, 0), 1, jplane, right, 1, &X(P, i0, j0 - 1, 0), 1, jplane, left, 1,
                             cart, MPI_STATUS_IGNORE);
            }
            MPI_Sendrecv(&X(P, i0, j0 - 1, 0), plane, MPI_FLOAT, up, 2, &X(P, i0 + lni, j0 - 1, 0), plane, MPI_FLOAT, down,
                         2, cart, MPI_STATUS_IGNORE);
            MPI_Sendrecv(&X(P, i0 + lni - 1, j0 - 1, 0), plane, MPI_FLOAT, down, 3, &X(P, i0 - 1, j0 - 1, 0), plane,
                         MPI_FLOAT, up, 3, cart, MPI_STATUS_IGNORE);
            halo += MPI_Wtime() - th;
            {
                typedef float (*V)[nj][MKMAX];
                lgosa = jacobi(nj, ilo - i0 + 1, ihi - i0 + 1, jlo - j0 + 1, jhi - j0 + 1, kmax, (V)arr[P], (V)arr[A0],
                               (V)arr[A1], (V)arr[A2], (V)arr[A3], (V)arr[B0], (V)arr[B1], (V)arr[B2], (V)arr[C0],
                               (V)arr[C1], (V)arr[C2], (V)arr[WRK1], (V)arr[WRK2], (V)arr[BND]);
            }
#endif
            MPI_Allreduce(&lgosa, &gosa, 1, MPI_FLOAT, MPI_SUM, cart);
        }
        MPI_Barrier(cart);
        t1 = MPI_Wtime();
        cp1 = clock();
    }
#ifdef _OPENACC
#pragma acc update self(block[0:sz])
#pragma acc exit data delete(block[0:(NARR - 1) * stride + sz], jb[0:4 * lni * MKMAX])
#endif
    for (i = i0; i < i0 + lni; i++)
        for (j = j0; j < j0 + lnj; j++)
            for (k = 0; k < MKMAX; k++)
                sum += X(P, i, j, k);
    MPI_Reduce(&sum, &gsum, 1, MPI_DOUBLE, MPI_SUM, 0, cart);
    MPI_Reduce(&halo, &ghalo, 1, MPI_DOUBLE, MPI_MAX, 0, cart);
    if (rank == 0) {
        printf("himeno mpi %dx%dx%d iter %d procs %d pj %d\n", MIMAX, MJMAX, MKMAX, nn, np, pj);
        printf("time %.6f\nhalo %.6f\ngosa %.9e\nchecksum %.9e\nmflops %.1f\n", t1 - t0, ghalo, gosa, gsum,
               HIMENO_FLOP * (imax - 2) * (jmax - 2) * (kmax - 2) * nn / (t1 - t0) * 1e-6);
        printf("cpu %.6f\n", (double)(cp1 - cp0) / CLOCKS_PER_SEC);
    }
    MPI_Type_free(&jplane);
    MPI_Comm_free(&cart);
    free(block);
#ifdef _OPENACC
    free(jb);
#endif
    MPI_Finalize();
    return 0;
}
