/*
 * 1-D Laplace equation, Jacobi iteration, block distribution with a shadow of
 * width 1 refreshed by reflect. Round syntax (t(0:N-1), p(4)).
 * The result is checked against a sequential run done redundantly on every node.
 *
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <xmp.h>

#define N    1024
#define ITER 200

#pragma xmp nodes p(4)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p

double u[N], uu[N];
#pragma xmp align u[i] with t(i)
#pragma xmp align uu[i] with t(i)
#pragma xmp shadow uu[1:1]

static double ref[N], tmp[N];

static void sequential(void)
{
    int i, k;
    for (i = 0; i < N; i++)
        ref[i] = tmp[i] = (i == N - 1) ? 1.0 : 0.0;
    for (k = 0; k < ITER; k++) {
        for (i = 1; i < N - 1; i++)
            tmp[i] = ref[i];
        for (i = 1; i < N - 1; i++)
            ref[i] = (tmp[i - 1] + tmp[i + 1]) / 2.0;
    }
}

int main(int argc, char *argv[])
{
    int i, k;
    double err = 0.0;

#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) {
        u[i] = (i == N - 1) ? 1.0 : 0.0;
        uu[i] = u[i];
    }

    for (k = 0; k < ITER; k++) {
#pragma xmp loop on t(i)
        for (i = 1; i < N - 1; i++)
            uu[i] = u[i];

#pragma xmp reflect (uu)

#pragma xmp loop on t(i)
        for (i = 1; i < N - 1; i++)
            u[i] = (uu[i - 1] + uu[i + 1]) / 2.0;
    }

    sequential();

#pragma xmp loop on t(i) reduction(max:err)
    for (i = 0; i < N; i++) {
        double d = u[i] - ref[i];
        if (d < 0)
            d = -d;
        if (d > err)
            err = d;
    }

    if (xmp_node_num() == 1) {
        if (err < 1.0e-12)
            printf("PASS\n");
        else
            printf("ERROR: max error %g\n", err);
    }
    return err < 1.0e-12 ? 0 : 1;
}
