/* Matrix product (the thesis' benchmark, seed 002 §4.5.4) in XMP-dev: C = A B with A
 * and C distributed by rows, B whole on every node; the product is repeated REPS
 * times, as the thesis repeats it to tune the CPU weight. The entries are small
 * integers, so every sum is exact and the checksum matches matmul_seq.c bit for bit. */
#include <stdio.h>
#include <xmp.h>

#ifndef N
#define N 192
#endif
#ifndef REPS
#define REPS 3
#endif

#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p

double a[N][N], c[N][N];
double b[N][N];
#pragma xmp align a[i][*] with t(i)
#pragma xmp align c[i][*] with t(i)

int main(void)
{
    int i, j, rep;
    double w = 0.2, s = 0.0;

#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            a[i][j] = (double)((i + 2 * j) % 5);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            b[i][j] = (double)((i * j + 1) % 3);

#pragma xmp device replicate (a, b, c)
    {
#pragma xmp device replicate_sync in (a, b)
        for (rep = 0; rep < REPS; rep++) {
#pragma xmp device loop on t(i)
            for (i = 0; i < N; i++) {
                int jj, k;
                for (jj = 0; jj < N; jj++) {
                    double sum = 0.0;
                    for (k = 0; k < N; k++)
                        sum += a[i][k] * b[k][jj];
                    c[i][jj] = sum;
                }
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
        }
#pragma xmp device replicate_sync out (c)
    }
    (void)w;
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            s += c[i][j] * (double)(1 + (i + j) % 4);
    if (xmp_node_num() == 1)
        printf("matmul checksum %.17g\n", s);
    return 0;
}
