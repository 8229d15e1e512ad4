/* gmove from a distributed array into a replicated local array (every node gets
 * the data): whole array and a section l[5:10] = a[20:10].
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 60
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
int a[N];
#pragma xmp align a[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num(), l[N], m[N];
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = 5 * i - 3;
    for (i = 0; i < N; i++) { l[i] = -1; m[i] = -1; }
#pragma xmp gmove
    l[0:N] = a[0:N];
#pragma xmp gmove
    m[5:10] = a[20:10];
    for (i = 0; i < N; i++) {
        CHECK(l[i] == 5 * i - 3);
        CHECK(m[i] == (i >= 5 && i < 15 ? 5 * (i + 15) - 3 : -1));
    }
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
