/* Column (strided) halos, reflected 24 times while the array changes: shadow
 * a[0][2:1] on (block, *), reflects of the declared widths, of width 1 on the
 * lower side only, and periodic 2:1. Every halo cell within the width is
 * compared with the closed form of the current iteration (on-node neighbours
 * exchange these through shared memory).
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define NX 41
#define NY 19
#pragma xmp nodes p(*)
#pragma xmp template t(0:NX-1, 0:NY-1)
#pragma xmp distribute t(block, *) onto p
double a[NY][NX];
#pragma xmp align a[j][i] with t(i, j)
#pragma xmp shadow a[0][2:1]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static double f(int it, int i, int j) { return it * 1e5 + j * 100 + (i + NX) % NX; }
int main(void)
{
    int i, j, d, it, lo, hi, per, me = xmp_node_num();
    for (it = 0; it < 24; it++) {
#pragma xmp loop (i, j) on t(i, j)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++)
                a[j][i] = f(it, i, j);
        if (it % 3 == 0) {
#pragma xmp reflect (a)
            lo = 2, hi = 1, per = 0;
        } else if (it % 3 == 1) {
#pragma xmp reflect (a) width(0, 1:0)
            lo = 1, hi = 0, per = 0;
        } else {
#pragma xmp reflect (a) width(0, /periodic/2:1)
            lo = 2, hi = 1, per = 1;
        }
#pragma xmp loop (i, j) on t(i, j)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++)
                for (d = -lo; d <= hi; d++) {
                    if (!per && (i + d < 0 || i + d >= NX))
                        continue;
                    CHECK(a[j][i + d] == f(it, i + d, j));
                }
    }
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
