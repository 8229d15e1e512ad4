/* Himeno benchmark in XcalableACC C, the shape of the thesis' listing A.2 (seed 002,
 * appendix A): the arrays and decomposition of himeno_xmp_2d (i and j
 * block-distributed over n(PJ, *), shadow p[1][1][0]) live on the accelerator
 * inside one `acc data` region; the Jacobi sweep and the copy are OpenACC kernels
 * inside the XMP loops, gosa is summed on the device and reduced across the nodes
 * with `reduction ... acc`, and the halos move with reflect_init / reflect_do ... acc.
 *   compile: xmpc -O2 [-DSIZE_MIDDLE] [-DPJ=2] himeno_xacc.c -o himeno_xacc
 *            (OpenACC host fallback; --acc=nvptx offloads to an NVIDIA GPU)
 *   usage:   mpiexec -n P himeno_xacc [NN]   (iterations, default 100)
 * Prints the same lines as himeno_seq; `halo` is the time of the reflect_do's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <xmp.h>
#include "himeno_common.h"

#ifndef PJ
#define PJ 2
#endif
#pragma xmp nodes n(PJ, *)
#pragma xmp template t(0:MKMAX-1, 0:MJMAX-1, 0:MIMAX-1)
#pragma xmp distribute t(*, block, block) onto n

float p[MIMAX][MJMAX][MKMAX], bnd[MIMAX][MJMAX][MKMAX], wrk1[MIMAX][MJMAX][MKMAX], wrk2[MIMAX][MJMAX][MKMAX];
float a0[MIMAX][MJMAX][MKMAX], a1[MIMAX][MJMAX][MKMAX], a2[MIMAX][MJMAX][MKMAX], a3[MIMAX][MJMAX][MKMAX];
float b0[MIMAX][MJMAX][MKMAX], b1[MIMAX][MJMAX][MKMAX], b2[MIMAX][MJMAX][MKMAX];
float c0[MIMAX][MJMAX][MKMAX], c1[MIMAX][MJMAX][MKMAX], c2[MIMAX][MJMAX][MKMAX];
#pragma xmp align [i][j][k] with t(k, j, i) :: p, bnd, wrk1, wrk2, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2
#pragma xmp shadow p[1][1][0]

int main(int argc, char **argv)
{
    int nn = argc > 1 ? atoi(argv[1]) : 100, n, i, j, k;
    const int imax = MIMAX - 1, jmax = MJMAX - 1, kmax = MKMAX - 1;
    float gosa = 0, s0, ss;
    double t0, t1, th, halo = 0, sum = 0;
    clock_t cp0, cp1; /* CPU time of the timed loop (this process) */
#pragma xmp loop (k, j, i) on t(k, j, i)
    for (i = 0; i < MIMAX; i++)
        for (j = 0; j < MJMAX; j++)
            for (k = 0; k < MKMAX; k++) {
                a0[i][j][k] = a1[i][j][k] = a2[i][j][k] = 1.0f;
                a3[i][j][k] = 1.0f / 6.0f;
                b0[i][j][k] = b1[i][j][k] = b2[i][j][k] = 0.0f;
                c0[i][j][k] = c1[i][j][k] = c2[i][j][k] = 1.0f;
                p[i][j][k] = (float)(i * i) / (float)((imax - 1) * (imax - 1));
                wrk1[i][j][k] = wrk2[i][j][k] = 0.0f;
                bnd[i][j][k] = 1.0f;
            }
#pragma acc data copy(p) copyin(bnd, wrk1, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2) create(wrk2)
    {
#pragma xmp reflect_init (p) acc
#pragma xmp barrier
        t0 = xmp_wtime();
        cp0 = clock();
        for (n = 0; n < nn; n++) {
            th = xmp_wtime();
#pragma xmp reflect_do (p) acc
            halo += xmp_wtime() - th;
            gosa = 0;
#pragma xmp loop (k, j, i) on t(k, j, i)
#pragma acc parallel loop collapse(2) gang vector_length(64) reduction(+:gosa) present(p, bnd, wrk1, wrk2, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2)
            for (i = 1; i < imax - 1; i++)
                for (j = 1; j < jmax - 1; j++)
#pragma acc loop vector reduction(+:gosa) private(s0, ss)
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
#pragma xmp reduction (+:gosa) acc
#pragma xmp loop (k, j, i) on t(k, j, i)
#pragma acc parallel loop collapse(2) gang vector_length(64) present(p, wrk2)
            for (i = 1; i < imax - 1; i++)
                for (j = 1; j < jmax - 1; j++)
#pragma acc loop vector
                    for (k = 1; k < kmax - 1; k++)
                        p[i][j][k] = wrk2[i][j][k];
        }
#pragma xmp barrier
        t1 = xmp_wtime();
        cp1 = clock();
    }
#pragma xmp loop (k, j, i) on t(k, j, i) reduction(+:sum)
    for (i = 0; i < MIMAX; i++)
        for (j = 0; j < MJMAX; j++)
            for (k = 0; k < MKMAX; k++)
                sum += p[i][j][k];
#pragma xmp reduction(max:halo)
    if (xmp_node_num() == 1) {
        printf("himeno xacc %dx%dx%d iter %d procs %d\n", MIMAX, MJMAX, MKMAX, nn, xmp_num_nodes());
        printf("time %.6f\nhalo %.6f\ngosa %.9e\nchecksum %.9e\nmflops %.1f\n", t1 - t0, halo, gosa, sum,
               HIMENO_FLOP * (imax - 2) * (jmax - 2) * (kmax - 2) * nn / (t1 - t0) * 1e-6);
        printf("cpu %.6f\n", (double)(cp1 - cp0) / CLOCKS_PER_SEC);
    }
    return 0;
}
