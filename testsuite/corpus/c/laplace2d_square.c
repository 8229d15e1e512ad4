/*
 * 2-D Laplace equation on a 2x2 node grid, square (C-order) syntax:
 * p[2][2], t[N][N], distribute t[block][block], shadow u[1][1].
 *
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <xmp.h>

#define N    64
#define ITER 100

#pragma xmp nodes p[2][2]
#pragma xmp template t[N][N]
#pragma xmp distribute t[block][block] onto p

double u[N][N], uu[N][N];
#pragma xmp align u[i][j] with t[i][j]
#pragma xmp align uu[i][j] with t[i][j]
#pragma xmp shadow uu[1][1]

double ref[N][N], tmp[N][N];

static double boundary(int i, int j)
{
    if (i == 0)
        return 1.0;
    if (j == N - 1)
        return 0.5;
    return 0.0;
}

int main(void)
{
    int i, j, k;
    double err = 0.0;

#pragma xmp loop (i, j) on t[i][j]
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            u[i][j] = uu[i][j] = boundary(i, j);

    for (k = 0; k < ITER; k++) {
#pragma xmp loop (i, j) on t[i][j]
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                uu[i][j] = u[i][j];

#pragma xmp reflect (uu)

#pragma xmp loop (i, j) on t[i][j]
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                u[i][j] = 0.25 * (uu[i - 1][j] + uu[i + 1][j] + uu[i][j - 1] + uu[i][j + 1]);
    }

    /* sequential reference on every node */
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            ref[i][j] = tmp[i][j] = boundary(i, j);
    for (k = 0; k < ITER; k++) {
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                tmp[i][j] = ref[i][j];
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                ref[i][j] = 0.25 * (tmp[i - 1][j] + tmp[i + 1][j] + tmp[i][j - 1] + tmp[i][j + 1]);
    }

#pragma xmp loop (i, j) on t[i][j] reduction(max:err)
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            double d = u[i][j] > ref[i][j] ? u[i][j] - ref[i][j] : ref[i][j] - u[i][j];
            err = d > err ? d : err;
        }

#pragma xmp task on p[0][0]
    {
        if (err < 1e-12)
            printf("PASS\n");
        else
            printf("ERROR: max error %g\n", err);
    }
    return err < 1e-12 ? 0 : 1;
}
