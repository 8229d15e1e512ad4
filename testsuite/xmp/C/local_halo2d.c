/* Local view: Jacobi on a 2-D grid split over a px x py grid of images; the halo rows
 * are contiguous coindexed puts and the halo columns strided ones
 * (u[1:BN][BM]:[east] ...). Every image recomputes the whole grid sequentially and
 * compares its block.
 * xmpc-test: np=1,2,4,6,8
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <xmp.h>
#define BN 6
#define BM 5
#define ITER 7
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
double u[BN + 2][BM + 2]:[*];
double un[BN + 2][BM + 2];
static double init(int gi, int gj) { return (double)((gi * 7 + gj * 3) % 11) + 0.5 * gi; }
int main(void)
{
    int me = xmpc_this_image(), n = xmp_num_images();
    int px = 1;
    for (int k = 1; k * k <= n; k++)
        if (n % k == 0) px = k;
    int py = n / px; /* px rows of images, py columns */
    int ci = me / py, cj = me % py;
    int N = BN * px, M = BM * py;
    int north = ci > 0 ? me - py : -1, south = ci < px - 1 ? me + py : -1;
    int west = cj > 0 ? me - 1 : -1, east = cj < py - 1 ? me + 1 : -1;
    /* block with halo; global boundary cells stay at their initial values */
    for (int i = 0; i < BN + 2; i++)
        for (int j = 0; j < BM + 2; j++) {
            int gi = ci * BN + i - 1, gj = cj * BM + j - 1;
            u[i][j] = (gi >= 0 && gi < N && gj >= 0 && gj < M) ? init(gi, gj) : 0.0;
        }
    xmp_sync_all(NULL);
    for (int it = 0; it < ITER; it++) {
        /* my edge rows/columns into the neighbours' halos */
        if (north >= 0) u[BN + 1][1:BM]:[north] = u[1][1:BM];
        if (south >= 0) u[0][1:BM]:[south] = u[BN][1:BM];
        if (west >= 0) u[1:BN][BM + 1]:[west] = u[1:BN][1];
        if (east >= 0) u[1:BN][0]:[east] = u[1:BN][BM];
        xmp_sync_all(NULL);
        for (int i = 1; i <= BN; i++)
            for (int j = 1; j <= BM; j++) {
                int gi = ci * BN + i - 1, gj = cj * BM + j - 1;
                if (gi == 0 || gi == N - 1 || gj == 0 || gj == M - 1)
                    un[i][j] = u[i][j];
                else
                    un[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
            }
        xmp_sync_all(NULL); /* nobody reads my halo-facing cells any more */
        for (int i = 1; i <= BN; i++)
            for (int j = 1; j <= BM; j++)
                u[i][j] = un[i][j];
        xmp_sync_all(NULL);
    }
    /* sequential reference */
    double *g = malloc(sizeof(double) * N * M), *h = malloc(sizeof(double) * N * M);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) g[i * M + j] = init(i, j);
    for (int it = 0; it < ITER; it++) {
        for (int i = 0; i < N; i++)
            for (int j = 0; j < M; j++)
                h[i * M + j] = (i == 0 || i == N - 1 || j == 0 || j == M - 1) ? g[i * M + j]
                    : 0.25 * (g[(i - 1) * M + j] + g[(i + 1) * M + j] + g[i * M + j - 1] + g[i * M + j + 1]);
        double *t = g; g = h; h = t;
    }
    for (int i = 1; i <= BN; i++)
        for (int j = 1; j <= BM; j++)
            CHECK(fabs(u[i][j] - g[(ci * BN + i - 1) * M + cj * BM + j - 1]) < 1e-12);
    /* a halo column read back with a strided get equals the neighbour's edge */
    if (east >= 0) {
        double col[BN];
        col[0:BN] = u[1:BN][1]:[east];
        for (int i = 0; i < BN; i++)
            CHECK(fabs(col[i] - g[(ci * BN + i) * M + (cj + 1) * BM]) < 1e-12);
    }
    xmp_sync_all(NULL);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 0) printf("PASS\n");
    return 0;
}
