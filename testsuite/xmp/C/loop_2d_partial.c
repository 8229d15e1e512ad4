/* 2-D loop (i, j) on t(i, j) over an interior sub-rectangle, and a loop that
 * distributes only the outer index (loop (j) on t(*, j)) with the inner loop
 * running over the whole row.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define NX 15
#define NY 22
#pragma xmp nodes p(*)
#pragma xmp template t(0:NX-1, 0:NY-1)
#pragma xmp distribute t(*, block) onto p
int a[NY][NX];
#pragma xmp align a[j][i] with t(i, j)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j, me = xmp_node_num();
    long s1 = 0, s2 = 0, w1 = 0, w2 = 0;
#pragma xmp loop (j) on t(*, j)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            a[j][i] = i + NX * j;
#pragma xmp loop (i, j) on t(i, j) reduction(+:s1)
    for (j = 3; j < NY - 4; j++)
        for (i = 2; i <= NX - 3; i++)
            s1 += a[j][i];
#pragma xmp loop (j) on t(*, j) reduction(+:s2)
    for (j = 1; j < NY; j += 2)
        for (i = 0; i < NX; i++)
            s2 += a[j][i];
    for (j = 3; j < NY - 4; j++)
        for (i = 2; i <= NX - 3; i++)
            w1 += i + NX * j;
    for (j = 1; j < NY; j += 2)
        for (i = 0; i < NX; i++)
            w2 += i + NX * j;
    CHECK(s1 == w1 && s2 == w2);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
