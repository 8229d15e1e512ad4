/* reflect on a (block, block) template over p(2,2) with shadow a[1][1] must fill
 * the corner (diagonal) shadow elements too (every shadow element has a source
 * element); a 9-point stencil reads them.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 12
#pragma xmp nodes p(2,2)
#pragma xmp template t(0:N-1, 0:N-1)
#pragma xmp distribute t(block, block) onto p
int a[N][N];
#pragma xmp align a[j][i] with t(i, j)
#pragma xmp shadow a[1][1]
static int nerr;
#define CHECK(x) do { if (!(x)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #x); } } while (0)
int main(void)
{
    int i, j, me = xmp_node_num();
#pragma xmp loop (i, j) on t(i, j)
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++)
            a[j][i] = 100 * j + i;
#pragma xmp reflect (a)
#pragma xmp loop (i, j) on t(i, j)
    for (j = 1; j < N - 1; j++)
        for (i = 1; i < N - 1; i++) {
            CHECK(a[j - 1][i - 1] == 100 * (j - 1) + i - 1);
            CHECK(a[j - 1][i + 1] == 100 * (j - 1) + i + 1);
            CHECK(a[j + 1][i - 1] == 100 * (j + 1) + i - 1);
            CHECK(a[j + 1][i + 1] == 100 * (j + 1) + i + 1);
        }
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
