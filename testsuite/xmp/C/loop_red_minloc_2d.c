/* 2-D loop with reduction(min:m/mi, mj/) (two location variables) and
 * reduction(+:s) in one clause list, over p(2,2).
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 20
#pragma xmp nodes p(2,2)
#pragma xmp template t(0:N-1, 0:N-1)
#pragma xmp distribute t(block, cyclic) onto p
long a[N][N];
#pragma xmp align a[j][i] with t(i, j)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static long f(int i, int j) { return ((i * 31 + j * 17) % 397) + (i == 13 && j == 6 ? -1000 : 0); }
int main(void)
{
    int i, j, me = xmp_node_num(), mi = -1, mj = -1;
    long m = 1L << 40, s = 0, ws = 0;
#pragma xmp loop (i, j) on t(i, j)
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++)
            a[j][i] = f(i, j);
#pragma xmp loop (i, j) on t(i, j) reduction(min:m/mi, mj/, +:s)
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++) {
            if (a[j][i] < m) { m = a[j][i]; mi = i; mj = j; }
            s += a[j][i];
        }
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++)
            ws += f(i, j);
    CHECK(m == f(13, 6) && mi == 13 && mj == 6);
    CHECK(s == ws);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
