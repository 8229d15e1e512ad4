/* The sequential twin of jacobi.c. */
#include <stdio.h>
#ifndef N
#define N 256
#endif
#ifndef STEPS
#define STEPS 10
#endif
double u[N][N], un[N][N];
int main(void)
{
    int i, j, step;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            u[i][j] = (i == 0 || j == 0) ? 1.0 : (double)((i * 7 + j * 3) % 11) / 11.0;
            un[i][j] = u[i][j];
        }
    for (step = 0; step < STEPS; step++) {
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                un[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                u[i][j] = un[i][j];
    }
    double s = 0.0;
    for (i = 0; i < N; i++) {
        double r = 0.0;
        for (j = 0; j < N; j++)
            r += u[i][j];
        s += r * (double)(1 + i % 3);
    }
    printf("jacobi checksum %.17g\n", s);
    return 0;
}
