/* align a[i][j] with t(i, j) (array's first C dimension on the template's first
 * round dimension) next to b[i][j] with t(j, i): the same template, two layouts;
 * a loop on t(x, y) writes both with x and y swapped in the subscripts.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 12
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1, 0:N-1)
#pragma xmp distribute t(*, block) onto p
int a[N][N], b[N][N];
#pragma xmp align a[i][j] with t(i, j)
#pragma xmp align b[i][j] with t(j, i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int x, y, me = xmp_node_num();
    long s = 0;
#pragma xmp loop (x, y) on t(x, y)
    for (y = 0; y < N; y++)
        for (x = 0; x < N; x++) {
            a[x][y] = x * N + y;
            b[y][x] = x * N + y;
        }
#pragma xmp loop (x, y) on t(x, y) reduction(+:s)
    for (y = 0; y < N; y++)
        for (x = 0; x < N; x++) {
            CHECK(a[x][y] == b[y][x]);
            s += a[x][y];
        }
    CHECK(s == (long)N * N * (N * N - 1) / 2);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
