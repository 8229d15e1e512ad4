/* nodes p(2,2): a 2-D node grid, round spelling. Node number = i + 2*(j-1) for
 * p(i,j) (first dimension varies fastest); checked through tasks on single nodes
 * and the owners of a (block,block) template.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 16
#pragma xmp nodes p(2,2)
#pragma xmp template t(0:N-1, 0:N-1)
#pragma xmp distribute t(block, block) onto p
int a[N][N];
#pragma xmp align a[j][i] with t(i, j)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j, me = xmp_node_num(), pi = 0, pj = 0, cnt = 0;
#pragma xmp task on p(1,1)
    { pi = 1; pj = 1; }
#pragma xmp task on p(2,1)
    { pi = 2; pj = 1; }
#pragma xmp task on p(1,2)
    { pi = 1; pj = 2; }
#pragma xmp task on p(2,2)
    { pi = 2; pj = 2; }
    CHECK(me == pi + 2 * (pj - 1));
#pragma xmp loop (i, j) on t(i, j) reduction(+:cnt)
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++) {
            a[j][i] = i + j;
            CHECK(i / (N / 2) + 1 == pi && j / (N / 2) + 1 == pj);
            cnt++;
        }
    CHECK(cnt == N * N);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
