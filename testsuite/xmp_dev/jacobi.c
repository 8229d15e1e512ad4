/* 2-D Jacobi in XMP-dev: rows distributed by block with one shadow row each side,
 * reflected every step; the sweep and the copy-back are device loops. The checksum
 * sums each row in order into a full-shadow array and node 1 adds the rows in order,
 * so it matches jacobi_seq.c bit for bit. -DPAPER_RULE: the thesis' weight rule. */
#include <stdio.h>
#include <xmp.h>

#ifndef N
#define N 256
#endif
#ifndef STEPS
#define STEPS 10
#endif

#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p

double u[N][N], un[N][N], rs[N];
#pragma xmp align u[i][*] with t(i)
#pragma xmp align un[i][*] with t(i)
#pragma xmp align rs[i] with t(i)
#pragma xmp shadow u[1][0]
#pragma xmp shadow rs[*]

int main(void)
{
    int i, j, step;
    double w = 0.2;

#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            u[i][j] = (i == 0 || j == 0) ? 1.0 : (double)((i * 7 + j * 3) % 11) / 11.0;
            un[i][j] = u[i][j];
        }
#pragma xmp reflect (u)

#pragma xmp device replicate (u, un)
    {
#pragma xmp device replicate_sync in (u, un)
        for (step = 0; step < STEPS; step++) {
#pragma xmp device loop on t(i)
            for (i = 1; i < N - 1; i++) {
                int k;
                for (k = 1; k < N - 1; k++)
                    un[i][k] = 0.25 * (u[i - 1][k] + u[i + 1][k] + u[i][k - 1] + u[i][k + 1]);
            }
#ifdef PAPER_RULE
            {
                double cpu = xmp_cpu_wtime(), gpu = xmp_gpu_wtime();
                double ratio = cpu / (cpu + gpu) * 100;
                if (ratio > 51)
                    w -= 0.01;
                if (ratio < 49)
                    w += 0.01;
            }
#pragma xmp device reset_weight (w)
#endif
#pragma xmp device loop on t(i)
            for (i = 1; i < N - 1; i++) {
                int k;
                for (k = 1; k < N - 1; k++)
                    u[i][k] = un[i][k];
            }
#pragma xmp device replicate_sync out (u)
#pragma xmp reflect (u)
#pragma xmp device replicate_sync in (u)
        }
    }
    (void)w;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) {
        double r = 0.0;
        for (j = 0; j < N; j++)
            r += u[i][j];
        rs[i] = r;
    }
#pragma xmp reflect (rs)
    if (xmp_node_num() == 1) {
        double s = 0.0;
        for (i = 0; i < N; i++)
            s += rs[i] * (double)(1 + i % 3);
        printf("jacobi checksum %.17g\n", s);
    }
    return 0;
}
