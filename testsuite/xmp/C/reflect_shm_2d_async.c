/* Three (block, block) arrays over p(2,*), updated and reflected 20 times:
 * x (shadow [1][2:1]) and y ([2][1]) together under async(1), z periodic in
 * both dims under async(2), interior work in between, then wait_async(1, 2).
 * Every halo cell within the widths, corners included, is compared with the
 * closed form of the current iteration.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define NX 26
#define NY 21
#pragma xmp nodes p(2,*)
#pragma xmp template t(0:NX-1, 0:NY-1)
#pragma xmp distribute t(block, block) onto p
long x[NY][NX], y[NY][NX], z[NY][NX], w[NY][NX];
#pragma xmp align [j][i] with t(i, j) :: x, y, z, w
#pragma xmp shadow x[1][2:1]
#pragma xmp shadow y[2][1]
#pragma xmp shadow z[1][1]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static long f(int k, int it, int i, int j) { return k * 10000000L + it * 100000L + ((j + NY) % NY) * 100 + (i + NX) % NX; }
static int in(int i, int j) { return i >= 0 && i < NX && j >= 0 && j < NY; }
int main(void)
{
    int i, j, di, dj, it, me = xmp_node_num();
    for (it = 0; it < 20; it++) {
#pragma xmp loop (i, j) on t(i, j)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++) {
                x[j][i] = f(1, it, i, j);
                y[j][i] = f(2, it, i, j);
                z[j][i] = f(3, it, i, j);
            }
#pragma xmp reflect (x, y) async(1)
#pragma xmp reflect (z) width(/periodic/1, /periodic/1) async(2)
#pragma xmp loop (i, j) on t(i, j)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++)
                w[j][i] = x[j][i] + y[j][i];
#pragma xmp wait_async(1, 2)
#pragma xmp loop (i, j) on t(i, j)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++) {
                CHECK(w[j][i] == f(1, it, i, j) + f(2, it, i, j));
                for (dj = -1; dj <= 1; dj++)
                    for (di = -2; di <= 1; di++)
                        if (in(i + di, j + dj))
                            CHECK(x[j + dj][i + di] == f(1, it, i + di, j + dj));
                for (dj = -2; dj <= 2; dj++)
                    for (di = -1; di <= 1; di++)
                        if (in(i + di, j + dj))
                            CHECK(y[j + dj][i + di] == f(2, it, i + di, j + dj));
                for (dj = -1; dj <= 1; dj++)
                    for (di = -1; di <= 1; di++)
                        CHECK(z[j + dj][i + di] == f(3, it, i + di, j + dj));
            }
    }
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
