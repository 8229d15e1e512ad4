/* The host forms of reflect_init / reflect_do (no acc; Omni never built them):
 * 2-D (block, block) over p(2, *), asymmetric shadows a[2:1][1:2] and a
 * reflect_init width(1:1, /periodic/1:2) used by many reflect_do; then a
 * second reflect_init of the same array replaces the widths (no halo).
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <xmp.h>
#define NX 12
#define NY 10
#pragma xmp nodes p(2, *)
#pragma xmp template t(0:NX-1, 0:NY-1)
#pragma xmp distribute t(block, block) onto p
long a[NY][NX];
#pragma xmp align a[j][i] with t(i, j)
#pragma xmp shadow a[2:1][1:2]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d node %d: %s\n", __LINE__, xmp_node_num(), #c); } } while (0)
static long f(int it, int i, int j) { return it * 100000L + 1000L * j + i; }
int main(void)
{
    int i, j, it;
#pragma xmp reflect_init (a) width(1:1, /periodic/1:2)
    for (it = 0; it < 3; it++) {
#pragma xmp loop (i, j) on t(i, j)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++)
                a[j][i] = f(it, i, j);
#pragma xmp reflect_do (a)
#pragma xmp loop (i, j) on t(i, j)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++) {
                /* dim j (first): width 1 each side, not periodic */
                if (j > 0)
                    CHECK(a[j - 1][i] == f(it, i, j - 1));
                if (j < NY - 1)
                    CHECK(a[j + 1][i] == f(it, i, j + 1));
                /* dim i (last): periodic, 1 below and 2 above */
                CHECK(a[j][i - 1] == f(it, (i - 1 + NX) % NX, j));
                CHECK(a[j][i + 2] == f(it, (i + 2) % NX, j));
                CHECK(a[j][i + 1] == f(it, (i + 1) % NX, j));
            }
    }
    /* new widths: nothing exchanged, the halos keep iteration 2's values */
#pragma xmp reflect_init (a) width(0, 0)
#pragma xmp loop (i, j) on t(i, j)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            a[j][i] = f(7, i, j);
#pragma xmp reflect_do (a)
#pragma xmp loop (i, j) on t(i, j)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            CHECK(a[j][i - 1] == f(7, i - 1, j) || a[j][i - 1] == f(2, (i - 1 + NX) % NX, j));
#pragma xmp reduction (+:nerr)
    if (xmp_node_num() == 1)
        printf(nerr == 0 ? "PASS\n" : "ERROR %d\n", nerr);
    return nerr != 0;
}
