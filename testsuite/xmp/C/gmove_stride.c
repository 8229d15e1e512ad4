/* gmove with strided sections (start:length:stride): b[0:N/2] = a[1:N/2:2]
 * (odd elements packed) and a[0:N/2:2] = b[0:N/2] (scattered to even slots).
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 48
#pragma xmp nodes p(*)
#pragma xmp template ta(0:N-1)
#pragma xmp template tb(0:N-1)
#pragma xmp distribute ta(block) onto p
#pragma xmp distribute tb(cyclic) onto p
int a[N], b[N];
#pragma xmp align a[i] with ta(i)
#pragma xmp align b[i] with tb(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num();
#pragma xmp loop on ta(i)
    for (i = 0; i < N; i++) a[i] = i;
#pragma xmp loop on tb(i)
    for (i = 0; i < N; i++) b[i] = -1;
#pragma xmp gmove
    b[0:N/2] = a[1:N/2:2];
#pragma xmp loop on tb(i)
    for (i = 0; i < N; i++)
        CHECK(b[i] == (i < N / 2 ? 2 * i + 1 : -1));
#pragma xmp gmove
    a[0:N/2:2] = b[0:N/2];
#pragma xmp loop on ta(i)
    for (i = 0; i < N; i++)
        CHECK(a[i] == (i % 2 == 0 ? i + 1 : i));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
