/* distribute t(gblock(*)) on an unfixed template, then template_fix(gblock(m))
 * t(0:n-1) with a run-time mapping array; owners follow the mapping.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(4)
#pragma xmp template t(:)
#pragma xmp distribute t(gblock(*)) onto p
int *a;
#pragma xmp align a[i] with t(i)
int m[4];
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, n, me = xmp_node_num(), cnt = 0;
    long s = 0;
    m[0] = 5; m[1] = 17; m[2] = 1; m[3] = 9;
    n = m[0] + m[1] + m[2] + m[3];
#pragma xmp template_fix(gblock(m)) t(0:n-1)
    a = (int *)xmp_malloc(xmp_desc_of(a), n);
#pragma xmp loop on t(i)
    for (i = 0; i < n; i++) {
        int o = i < 5 ? 1 : i < 22 ? 2 : i < 23 ? 3 : 4;
        CHECK(o == me);
        a[i] = i;
        cnt++;
    }
    CHECK(cnt == m[me - 1]);
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 0; i < n; i++)
        s += a[i];
    CHECK(s == (long)n * (n - 1) / 2);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
