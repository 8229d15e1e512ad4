/* distribute t(gblock(mx), block) onto p(2,2): a generalised block dimension
 * next to a regular one.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define NX 10
#define NY 8
int mx[2] = {7, 3};
#pragma xmp nodes p(2,2)
#pragma xmp template t(0:NX-1, 0:NY-1)
#pragma xmp distribute t(gblock(mx), block) onto p
double a[NY][NX];
#pragma xmp align a[j][i] with t(i, j)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j, me = xmp_node_num() - 1, cnt = 0;
    double s = 0;
#pragma xmp loop (i, j) on t(i, j) reduction(+:cnt)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++) {
            CHECK((i < 7 ? 0 : 1) + 2 * (j / 4) == me);
            a[j][i] = 1.5 * (i + NX * j);
            cnt++;
        }
    CHECK(cnt == NX * NY);
#pragma xmp loop (i, j) on t(i, j) reduction(+:s)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            s += a[j][i];
    CHECK(s == 1.5 * NX * NY * (NX * NY - 1) / 2);
    if (nerr) exit(1);
    if (me == 0) printf("PASS\n");
    return 0;
}
