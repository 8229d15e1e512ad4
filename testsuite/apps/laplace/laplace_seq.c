/* 2-D Laplace (Jacobi, 5-point) solver, plain sequential C: the reference, and the
 * XMP programs without their directives (same static arrays, same loops).
 *   compile: cc -O2 -DNX=2048 -DNY=2048 laplace_seq.c -o laplace_seq
 *   usage:   laplace_seq [ITER]   (default 1000)
 * Grid sizes are compile-time (-DNX, -DNY; default 2048), as in the XMP versions.
 * Prints: time <s of the iteration loop>, halo 0, checksum <sum of u>, and
 * point <u at (NY/3, NX/3)>. Boundary u(i,0) = 1, u(0,j) = 0.5, the rest 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifndef NX
#define NX 2048
#endif
#ifndef NY
#define NY 2048
#endif

static double u[NY][NX], uu[NY][NX];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int iter = argc > 1 ? atoi(argv[1]) : 1000, i, j, k;
    double t0, t1, sum = 0;
    clock_t cp0, cp1; /* CPU time of the timed loop (this process) */
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            u[j][i] = uu[j][i] = j == 0 ? 1.0 : i == 0 ? 0.5 : 0.0;
    t0 = now();
    cp0 = clock();
    for (k = 0; k < iter; k++) {
        for (j = 1; j < NY - 1; j++)
            for (i = 1; i < NX - 1; i++)
                uu[j][i] = 0.25 * (u[j - 1][i] + u[j + 1][i] + u[j][i - 1] + u[j][i + 1]);
        for (j = 1; j < NY - 1; j++)
            for (i = 1; i < NX - 1; i++)
                u[j][i] = uu[j][i];
    }
    t1 = now();
    cp1 = clock();
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            sum += u[j][i];
    printf("laplace seq %dx%d iter %d procs 1\n", NX, NY, iter);
    printf("time %.6f\nhalo 0\nchecksum %.15e\npoint %.15e\n", t1 - t0, sum, u[NY / 3][NX / 3]);
    printf("cpu %.6f\n", (double)(cp1 - cp0) / CLOCKS_PER_SEC);
    return 0;
}
