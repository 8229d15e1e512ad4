/* 60 Jacobi sweeps (30 pairs) on a torus: u and v distributed by columns (block, *), so
 * every halo is strided, reflected with width(0, /periodic/1) each sweep while
 * both arrays change. The result is compared element by element with the same
 * sweeps done sequentially on a plain array (same expressions, so equal bits).
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define NX 34
#define NY 15
#pragma xmp nodes p(*)
#pragma xmp template t(0:NX-1, 0:NY-1)
#pragma xmp distribute t(block, *) onto p
double u[NY][NX], v[NY][NX];
#pragma xmp align [j][i] with t(i, j) :: u, v
#pragma xmp shadow u[0][1]
#pragma xmp shadow v[0][1]
static double s[NY][NX], s2[NY][NX];
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static double init(int i, int j) { return (double)((i * 7 + j * 13) % 17); }
int main(void)
{
    int i, j, k, me = xmp_node_num();
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            s[j][i] = init(i, j);
#pragma xmp loop (i, j) on t(i, j)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            u[j][i] = init(i, j);
    for (k = 0; k < 30; k++) {
#pragma xmp reflect (u) width(0, /periodic/1)
#pragma xmp loop (i, j) on t(i, j)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++)
                v[j][i] = j == 0 || j == NY - 1 ? u[j][i] : 0.25 * (u[j][i - 1] + u[j][i + 1] + u[j - 1][i] + u[j + 1][i]);
#pragma xmp reflect (v) width(0, /periodic/1)
#pragma xmp loop (i, j) on t(i, j)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++)
                u[j][i] = j == 0 || j == NY - 1 ? v[j][i] : 0.25 * (v[j][i - 1] + v[j][i + 1] + v[j - 1][i] + v[j + 1][i]);
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++)
                s2[j][i] = j == 0 || j == NY - 1 ? s[j][i] : 0.25 * (s[j][(i + NX - 1) % NX] + s[j][(i + 1) % NX] + s[j - 1][i] + s[j + 1][i]);
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++)
                s[j][i] = j == 0 || j == NY - 1 ? s2[j][i] : 0.25 * (s2[j][(i + NX - 1) % NX] + s2[j][(i + 1) % NX] + s2[j - 1][i] + s2[j + 1][i]);
    }
#pragma xmp loop (i, j) on t(i, j)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            CHECK(u[j][i] == s[j][i]);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
