/* gmove out: the same block-to-cyclic copy as a plain gmove, done with the one-sided
 * "out" mode (the owners of the right side put the data); the result must be identical.
 * Then a section shifted by N-10.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 40
#pragma xmp nodes p(*)
#pragma xmp template ta(0:N-1)
#pragma xmp template tb(0:N-1)
#pragma xmp distribute ta(block) onto p
#pragma xmp distribute tb(cyclic(2)) onto p
double a[N], b[N];
#pragma xmp align a[i] with ta(i)
#pragma xmp align b[i] with tb(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num();
#pragma xmp loop on ta(i)
    for (i = 0; i < N; i++) a[i] = i + 0.25;
#pragma xmp loop on tb(i)
    for (i = 0; i < N; i++) b[i] = 0;
#pragma xmp gmove out
    b[0:N] = a[0:N];
#pragma xmp loop on tb(i)
    for (i = 0; i < N; i++)
        CHECK(b[i] == i + 0.25);
#pragma xmp gmove out
    b[N-10:10] = a[0:10];
#pragma xmp loop on tb(i)
    for (i = 0; i < N; i++)
        CHECK(b[i] == (i >= N - 10 ? i - (N - 10) + 0.25 : i + 0.25));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
