/* 50 iterations of a 2-D 5-point Jacobi on a (block, block) template over p(2,*)
 * (row and column halos every step), compared bit for bit with a sequential run.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define NX 33
#define NY 27
#define IT 50
#pragma xmp nodes p(2,*)
#pragma xmp template t(0:NX-1, 0:NY-1)
#pragma xmp distribute t(block, block) onto p
double u[NY][NX], v[NY][NX];
#pragma xmp align [j][i] with t(i, j) :: u, v
#pragma xmp shadow u[1][1]
double su[NY][NX], sv[NY][NX];
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static double init(int i, int j) { return (i == 0 || j == 0) ? 1.0 : (double)((i * 3 + j) % 5); }
int main(void)
{
    int i, j, k, me = xmp_node_num();
#pragma xmp loop (i, j) on t(i, j)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            u[j][i] = v[j][i] = init(i, j);
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            su[j][i] = sv[j][i] = init(i, j);
    for (k = 0; k < IT; k++) {
#pragma xmp reflect (u)
#pragma xmp loop (i, j) on t(i, j)
        for (j = 1; j < NY - 1; j++)
            for (i = 1; i < NX - 1; i++)
                v[j][i] = 0.25 * (u[j][i - 1] + u[j][i + 1] + u[j - 1][i] + u[j + 1][i]);
#pragma xmp loop (i, j) on t(i, j)
        for (j = 1; j < NY - 1; j++)
            for (i = 1; i < NX - 1; i++)
                u[j][i] = v[j][i];
        for (j = 1; j < NY - 1; j++)
            for (i = 1; i < NX - 1; i++)
                sv[j][i] = 0.25 * (su[j][i - 1] + su[j][i + 1] + su[j - 1][i] + su[j + 1][i]);
        for (j = 1; j < NY - 1; j++)
            for (i = 1; i < NX - 1; i++)
                su[j][i] = sv[j][i];
    }
#pragma xmp loop (i, j) on t(i, j)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            CHECK(u[j][i] == su[j][i]);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
