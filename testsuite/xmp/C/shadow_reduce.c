/* reduce_shadow: each element scatters into its 3x3 neighbourhood of a
 * (block, block) array over p(2,2); as in Omni, what lands in a corner shadow
 * (an element of the diagonal neighbour) is not reduced; then a 1-D periodic reduce_shadow with async + wait_async. Both
 * are compared with neighbourhood sums recomputed serially.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define NX 11
#define NY 9
#define N 13
#pragma xmp nodes p(2,2)
#pragma xmp nodes q(4)
#pragma xmp template t(0:NX-1, 0:NY-1)
#pragma xmp template u(0:N-1)
#pragma xmp distribute t(block, block) onto p
#pragma xmp distribute u(block) onto q
long a[NY][NX];
#pragma xmp align a[j][i] with t(i, j)
#pragma xmp shadow a[1][1]
double b[N];
#pragma xmp align b[i] with u(i)
#pragma xmp shadow b[1:1]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static long v(int i, int j) { return 1000L * j + i; }
/* block owners of t(0:NX-1, 0:NY-1) over p(2,2): blocks of 6 and 5 */
static int crosses_corner(int i, int j, int i2, int j2) { return i / 6 != i2 / 6 && j / 5 != j2 / 5; }
int main(void)
{
    int i, j, di, dj;
#pragma xmp loop (i, j) on t(i, j)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            for (dj = -1; dj <= 1; dj++)
                for (di = -1; di <= 1; di++)
                    a[j + dj][i + di] += v(i, j);
#pragma xmp reduce_shadow (a)
#pragma xmp loop (i, j) on t(i, j)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++) {
            long want = 0;
            for (dj = -1; dj <= 1; dj++)
                for (di = -1; di <= 1; di++)
                    if (i + di >= 0 && i + di < NX && j + dj >= 0 && j + dj < NY && !crosses_corner(i, j, i + di, j + dj))
                        want += v(i + di, j + dj);
            CHECK(a[j][i] == want);
        }
    /* b[i] gets 2i from itself, i from i+1 and 3i from i-1, modulo N */
#pragma xmp loop on u(i)
    for (i = 0; i < N; i++) {
        b[i] += 2.0 * i;
        b[i - 1] += i;
        b[i + 1] += 3.0 * i;
    }
#pragma xmp reduce_shadow (b) width(/periodic/1:1) async(7)
#pragma xmp wait_async (7)
#pragma xmp loop on u(i)
    for (i = 0; i < N; i++)
        CHECK(b[i] == 2.0 * i + (i + 1) % N + 3.0 * ((i + N - 1) % N));
#pragma xmp reduction(+:nerr)
    if (xmp_node_num() == 1 && nerr == 0)
        printf("PASS\n");
    return nerr != 0;
}
