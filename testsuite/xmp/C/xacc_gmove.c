/* XcalableACC gmove ... acc: distributed arrays on the device copied into each
 * other (block to cyclic, a shifted section) and into a replicated local array,
 * inside an acc data region; checked after the region.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <xmp.h>
#define N 20
#pragma xmp nodes p(*)
#pragma xmp template tb(0:N-1)
#pragma xmp template tc(0:N-1)
#pragma xmp distribute tb(block) onto p
#pragma xmp distribute tc(cyclic) onto p
int a[N], b[N];
#pragma xmp align a[i] with tb(i)
#pragma xmp align b[i] with tc(i)
int r[N];
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d node %d: %s\n", __LINE__, xmp_node_num(), #c); } } while (0)
int main(void)
{
    int i;
#pragma xmp loop on tb(i)
    for (i = 0; i < N; i++)
        a[i] = 3 * i + 1;
#pragma xmp loop on tc(i)
    for (i = 0; i < N; i++)
        b[i] = -1;
    for (i = 0; i < N; i++)
        r[i] = -2;
#pragma acc data copy(a, b, r)
    {
#pragma xmp gmove acc
        b[0:N] = a[0:N];
#pragma xmp loop on tc(i)
#pragma acc parallel loop present(b)
        for (i = 0; i < N; i++)
            b[i] += 1000;
#pragma xmp gmove acc
        a[2:N-2] = b[0:N-2];
#pragma xmp gmove acc
        r[0:N] = a[0:N];
    }
#pragma xmp loop on tc(i)
    for (i = 0; i < N; i++)
        CHECK(b[i] == 3 * i + 1 + 1000);
#pragma xmp loop on tb(i)
    for (i = 0; i < N; i++)
        CHECK(a[i] == (i < 2 ? 3 * i + 1 : 3 * (i - 2) + 1 + 1000));
    for (i = 0; i < N; i++)
        CHECK(r[i] == (i < 2 ? 3 * i + 1 : 3 * (i - 2) + 1 + 1000));
#pragma xmp reduction (+:nerr)
    if (xmp_node_num() == 1)
        printf(nerr == 0 ? "PASS\n" : "ERROR %d\n", nerr);
    return nerr != 0;
}
