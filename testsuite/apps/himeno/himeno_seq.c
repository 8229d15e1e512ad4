/* Himeno benchmark (Poisson, 19-point Jacobi), plain sequential C: the reference.
 *   compile: cc -O2 [-DSIZE_MIDDLE] himeno_seq.c -o himeno_seq
 *   usage:   himeno_seq [NN]   (iterations, default 100)
 * Prints: time <s of the NN iterations>, halo 0, gosa <last residual>,
 * checksum <sum of p>, mflops.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "himeno_common.h"

static float p[MIMAX][MJMAX][MKMAX], bnd[MIMAX][MJMAX][MKMAX], wrk1[MIMAX][MJMAX][MKMAX], wrk2[MIMAX][MJMAX][MKMAX];
static float a0[MIMAX][MJMAX][MKMAX], a1[MIMAX][MJMAX][MKMAX], a2[MIMAX][MJMAX][MKMAX], a3[MIMAX][MJMAX][MKMAX];
static float b0[MIMAX][MJMAX][MKMAX], b1[MIMAX][MJMAX][MKMAX], b2[MIMAX][MJMAX][MKMAX];
static float c0[MIMAX][MJMAX][MKMAX], c1[MIMAX][MJMAX][MKMAX], c2[MIMAX][MJMAX][MKMAX];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int nn = argc > 1 ? atoi(argv[1]) : 100, n, i, j, k;
    const int imax = MIMAX - 1, jmax = MJMAX - 1, kmax = MKMAX - 1;
    float gosa = 0, s0, ss;
    double t0, t1, sum = 0;
    clock_t cp0, cp1; /* CPU time of the timed loop (this process) */
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
    t0 = now();
    cp0 = clock();
    for (n = 0; n < nn; n++) {
        gosa = 0;
        for (i = 1; i < imax - 1; i++)
            for (j = 1; j < jmax - 1; j++)
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
        for (i = 1; i < imax - 1; i++)
            for (j = 1; j < jmax - 1; j++)
                for (k = 1; k < kmax - 1; k++)
                    p[i][j][k] = wrk2[i][j][k];
    }
    t1 = now();
    cp1 = clock();
    for (i = 0; i < MIMAX; i++)
        for (j = 0; j < MJMAX; j++)
            for (k = 0; k < MKMAX; k++)
                sum += p[i][j][k];
    printf("himeno seq %dx%dx%d iter %d procs 1\n", MIMAX, MJMAX, MKMAX, nn);
    printf("time %.6f\nhalo 0\ngosa %.9e\nchecksum %.9e\nmflops %.1f\n", t1 - t0, gosa, sum,
           HIMENO_FLOP * (imax - 2) * (jmax - 2) * (kmax - 2) * nn / (t1 - t0) * 1e-6);
    printf("cpu %.6f\n", (double)(cp1 - cp0) / CLOCKS_PER_SEC);
    return 0;
}
