/* gmove between differently distributed arrays: block to gblock (uneven, gm = {30, 2, 20, 12}).
 * Whole array, then a shifted section b[7:30] = a[15:30].
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 64
int gm[4] = {30, 2, 20, 12};
#pragma xmp nodes p(4)
#pragma xmp template ta(0:N-1)
#pragma xmp template tb(0:N-1)
#pragma xmp distribute ta(block) onto p
#pragma xmp distribute tb(gblock(gm)) onto p
long a[N], b[N];
#pragma xmp align a[i] with ta(i)
#pragma xmp align b[i] with tb(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num();
    (void)gm;
#pragma xmp loop on ta(i)
    for (i = 0; i < N; i++)
        a[i] = 11L * i + 2;
#pragma xmp loop on tb(i)
    for (i = 0; i < N; i++)
        b[i] = -1;
#pragma xmp gmove
    b[:] = a[:];
#pragma xmp loop on tb(i)
    for (i = 0; i < N; i++)
        CHECK(b[i] == 11L * i + 2);
#pragma xmp loop on tb(i)
    for (i = 0; i < N; i++)
        b[i] = -1;
#pragma xmp gmove
    b[7:30] = a[15:30];
#pragma xmp loop on tb(i)
    for (i = 0; i < N; i++)
        CHECK(b[i] == (i >= 7 && i < 37 ? 11L * (i + 8) + 2 : -1));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
