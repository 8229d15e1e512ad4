/* 2-D Laplace (Jacobi, 5-point) in XcalableACC C, the shape of the thesis' listing
 * A.1 (seed 002, appendix A): the arrays of laplace_xmp_2d (template t(0:NX-1,
 * 0:NY-1) distributed (block, block) onto p(PX, *), shadow u[1][1]) live on the
 * accelerator inside one `acc data` region; the stencil and the copy are OpenACC
 * kernels inside the XMP loops, and the halos move with reflect_init / reflect_do
 * ... acc (persistent plan, device data). The checksum is summed on the host after
 * the region, as in the other Laplace programs. The kernels have the listing's form,
 * `parallel loop gang` over rows and `loop vector` over a row: with `collapse(2)`
 * instead, GCC's host fallback recovers (j, i) from one counter and vectorises
 * nothing (2048^2 x 300 at 1 process: 3.3x the sequential time, against 0.8x).
 *   compile: xmpc -O2 -DNX=2048 -DNY=2048 -DPX=2 laplace_xacc.c -o laplace_xacc
 *            (OpenACC host fallback; --acc=nvptx offloads to an NVIDIA GPU)
 *   usage:   mpiexec -n P laplace_xacc [ITER [NHALO]]   (default 1000 200)
 * Prints the same lines as laplace_seq; `halo` is the total time of the reflect_do's;
 * `halo1` the median time of one reflect_do run NHALO times in isolation (each after
 * a barrier; the slowest node's median).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
#include <xmp.h>
#ifndef NX
#define NX 2048
#endif
#ifndef NY
#define NY 2048
#endif
#ifndef PX
#define PX 2
#endif
#pragma xmp nodes p(PX, *)
#pragma xmp template t(0:NX-1, 0:NY-1)
#pragma xmp distribute t(block, block) onto p
double u[NY][NX], uu[NY][NX];
#pragma xmp align [j][i] with t(i, j) :: u, uu
#pragma xmp shadow u[1][1]

int main(int argc, char **argv)
{
    int iter = argc > 1 ? atoi(argv[1]) : 1000, nh = argc > 2 ? atoi(argv[2]) : 200, i, j, k;
    double t0, t1, th, halo = 0, sum = 0, pt = 0, h1 = 0;
    double *smp = malloc(sizeof(double) * (nh > 0 ? nh : 1));
    clock_t cp0, cp1; /* CPU time of the timed loop (this process) */
#pragma xmp loop (i, j) on t(i, j)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            u[j][i] = uu[j][i] = j == 0 ? 1.0 : i == 0 ? 0.5 : 0.0;
#pragma acc data copy(u) create(uu)
    {
#pragma xmp reflect_init (u) acc
#pragma xmp barrier
        t0 = xmp_wtime();
        cp0 = clock();
        for (k = 0; k < iter; k++) {
            th = xmp_wtime();
#pragma xmp reflect_do (u) acc
            halo += xmp_wtime() - th;
#pragma xmp loop (i, j) on t(i, j)
#pragma acc parallel loop gang vector_length(256) present(u, uu)
            for (j = 1; j < NY - 1; j++)
#pragma acc loop vector
                for (i = 1; i < NX - 1; i++)
                    uu[j][i] = 0.25 * (u[j - 1][i] + u[j + 1][i] + u[j][i - 1] + u[j][i + 1]);
#pragma xmp loop (i, j) on t(i, j)
#pragma acc parallel loop gang vector_length(256) present(u, uu)
            for (j = 1; j < NY - 1; j++)
#pragma acc loop vector
                for (i = 1; i < NX - 1; i++)
                    u[j][i] = uu[j][i];
        }
#pragma xmp barrier
        t1 = xmp_wtime();
        cp1 = clock();
        for (k = 0; k < nh; k++) {
#pragma xmp barrier
            th = xmp_wtime();
#pragma xmp reflect_do (u) acc
            smp[k] = xmp_wtime() - th;
        }
    }
#pragma xmp loop (i, j) on t(i, j) reduction(+:sum, pt)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++) {
            sum += u[j][i];
            if (j == NY / 3 && i == NX / 3)
                pt = u[j][i];
        }
    if (nh > 0) {
        qsort(smp, nh, sizeof(double), cmpd);
        h1 = smp[nh / 2];
    }
    free(smp);
#pragma xmp reduction(max:halo, h1)
    if (xmp_node_num() == 1) {
        printf("laplace xacc %dx%d iter %d procs %d\n", NX, NY, iter, xmp_num_nodes());
        printf("time %.6f\nhalo %.6f\nchecksum %.15e\npoint %.15e\n", t1 - t0, halo, sum, pt);
        printf("cpu %.6f\n", (double)(cp1 - cp0) / CLOCKS_PER_SEC);
        printf("halo1 %.9f\n", h1);
    }
    return 0;
}
