/* The sequential twin of matmul.c. */
#include <stdio.h>
#ifndef N
#define N 192
#endif
#ifndef REPS
#define REPS 3
#endif
double a[N][N], b[N][N], c[N][N];
int main(void)
{
    int i, j, k, rep;
    double s = 0.0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            a[i][j] = (double)((i + 2 * j) % 5);
            b[i][j] = (double)((i * j + 1) % 3);
        }
    for (rep = 0; rep < REPS; rep++)
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++) {
                double sum = 0.0;
                for (k = 0; k < N; k++)
                    sum += a[i][k] * b[k][j];
                c[i][j] = sum;
            }
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            s += c[i][j] * (double)(1 + (i + j) % 4);
    printf("matmul checksum %.17g\n", s);
    return 0;
}
