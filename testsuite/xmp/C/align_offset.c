/* align a[i] with t(i+2) and b[i] with t(i-3) on a template t(-3:N+4): offsets
 * move the owners; the
 * loop on t(i) touches a[i-2] and b[i+3], which are local by construction.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 80
#pragma xmp nodes p(*)
#pragma xmp template t(-3:N+4)
#pragma xmp distribute t(block) onto p
int a[N], b[N];
#pragma xmp align a[i] with t(i+2)
#pragma xmp align b[i] with t(i-3)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num();
    long s = 0;
#pragma xmp loop on t(i)
    for (i = 2; i < N + 2; i++)
        a[i - 2] = i - 2;
#pragma xmp loop on t(i)
    for (i = 0; i < N - 3; i++)
        b[i + 3] = 10 * (i + 3);
#pragma xmp loop on t(i+2) reduction(+:s)
    for (i = 0; i < N; i++)
        s += a[i];
    CHECK(s == N * (N - 1) / 2);
    s = 0;
#pragma xmp loop on t(i-3) reduction(+:s)
    for (i = 3; i < N; i++)
        s += b[i];
    CHECK(s == 10L * (N * (N - 1) / 2 - 3));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
