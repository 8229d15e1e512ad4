/*
 * XcalableACC 2-D Laplace solver (after the thesis' appendix A): XMP data
 * distribution, OpenACC kernels, halo exchange on device memory with
 * reflect_init / reflect_do ... acc, and a device-side reduction.
 * Note the OpenACC pragma between a for header and its unbraced body.
 *
 * xmpc-test: np=4 acc
 */
#include <stdio.h>
#include <xmp.h>

#define N    128
#define ITER 50

#pragma xmp nodes p(2, 2)
#pragma xmp template t(0:N-1, 0:N-1)
#pragma xmp distribute t(block, block) onto p

double u[N][N], uu[N][N];
#pragma xmp align [j][i] with t(i, j) :: u, uu
#pragma xmp shadow uu[1:1][1:1]

static double ref[N][N], tmp[N][N];

/* The same iteration on one node, for the check. */
static double sequential_sum(void)
{
    int i, j, k;
    double s = 0.0;
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++)
            ref[j][i] = tmp[j][i] = (j == 0) ? 1.0 : 0.0;
    for (k = 0; k < ITER; k++) {
        for (j = 1; j < N - 1; j++)
            for (i = 1; i < N - 1; i++)
                tmp[j][i] = ref[j][i];
        for (j = 1; j < N - 1; j++)
            for (i = 1; i < N - 1; i++)
                ref[j][i] = (tmp[j - 1][i] + tmp[j + 1][i] + tmp[j][i - 1] + tmp[j][i + 1]) / 4.0;
    }
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++)
            s += ref[j][i];
    return s;
}

int main(void)
{
    int i, j, k, ok;
    double sum = 0.0, expect;

é#pragma xmp loop (i, j) on t(i, j)
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++) {
            u[j][i] = (j == 0) ? 1.0 : 0.0;
            uu[j][i] = u[j][i];
        }

#pragma acc data copy(u) copyin(uu)
    {
#pragma xmp reflect_init (uu) acc
        for (k = 0; k < ITER; k++) {
#pragma xmp loop (i, j) on t(i, j)
#pragma acc parallel loop collapse(2) present(u, uu)
            for (j = 1; j < N - 1; j++)
                for (i = 1; i < N - 1; i++)
                    uu[j][i] = u[j][i];

#pragma xmp reflect_do (uu) acc

#pragma xmp loop (i, j) on t(i, j)
#pragma acc parallel loop present(u, uu)
            for (j = 1; j < N - 1; j++)
#pragma acc loop
                for (i = 1; i < N - 1; i++)
                    u[j][i] = (uu[j - 1][i] + uu[j + 1][i] + uu[j][i - 1] + uu[j][i + 1]) / 4.0;
        }

#pragma xmp loop (i, j) on t(i, j)
#pragma acc parallel loop reduction(+:sum) present(u)
        for (j = 0; j < N; j++)
#pragma acc loop reduction(+:sum)
            for (i = 0; i < N; i++)
                sum += u[j][i];
#pragma xmp reduction (+:sum) acc
    }

    expect = sequential_sum();
    ok = (sum - expect) < 1e-9 * expect && (expect - sum) < 1e-9 * expect;
#pragma xmp task on p(1, 1)
    {
        if (ok)
            printf("PASS\n");
        else
            printf("ERROR: sum = %f, expected %f\n", sum, expect);
    }
    return !ok;
}
