/* reflect (a) width(/periodic/1, /periodic/1) on a (block,block) template over p(2,*): a torus halo in both dimensions.
 * A 5-point stencil over the whole array is compared with the closed form of
 * every neighbour.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define NX 23
#define NY 18
#pragma xmp nodes p(2,*)
#pragma xmp template t(0:NX-1, 0:NY-1)
#pragma xmp distribute t(block, block) onto p
long a[NY][NX];
#pragma xmp align a[j][i] with t(i, j)
#pragma xmp shadow a[1][1]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
#define PER 1
static long f(int i, int j) { return 1000L * ((j + NY) % NY) + (i + NX) % NX; }
int main(void)
{
    int i, j, me = xmp_node_num(), lo = PER ? 0 : 1;
    long s = 0, want = 0;
#pragma xmp loop (i, j) on t(i, j)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            a[j][i] = f(i, j);
#pragma xmp reflect (a) width(/periodic/1, /periodic/1)
#pragma xmp loop (i, j) on t(i, j) reduction(+:s)
    for (j = lo; j < NY - lo; j++)
        for (i = lo; i < NX - lo; i++) {
            CHECK(a[j][i - 1] == f(i - 1, j) && a[j][i + 1] == f(i + 1, j));
            CHECK(a[j - 1][i] == f(i, j - 1) && a[j + 1][i] == f(i, j + 1));
            s += a[j][i - 1] + a[j][i + 1] + a[j - 1][i] + a[j + 1][i] - 4 * a[j][i];
        }
    for (j = lo; j < NY - lo; j++)
        for (i = lo; i < NX - lo; i++)
            want += f(i - 1, j) + f(i + 1, j) + f(i, j - 1) + f(i, j + 1) - 4 * f(i, j);
    CHECK(s == want);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
