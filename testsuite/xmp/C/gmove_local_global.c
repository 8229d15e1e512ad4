/* gmove from a replicated local array into a distributed one (each owner copies
 * its part): a[0:N] = l[0:N], then a section a[10:20] = l[30:20].
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 60
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(cyclic(4)) onto p
double a[N];
#pragma xmp align a[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num();
    double l[N];
    for (i = 0; i < N; i++)
        l[i] = 0.5 * i;
#pragma xmp gmove
    a[0:N] = l[0:N];
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        CHECK(a[i] == 0.5 * i);
    for (i = 0; i < N; i++)
        l[i] = -1.0 * i;
#pragma xmp gmove
    a[10:20] = l[30:20];
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        CHECK(a[i] == (i >= 10 && i < 30 ? -1.0 * (i + 20) : 0.5 * i));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
