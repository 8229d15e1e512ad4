/* template t(:) fixed at run time with template_fix, an aligned pointer allocated
 * with xmp_malloc(xmp_desc_of(a), n).
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(*)
#pragma xmp template t(:)
#pragma xmp distribute t(block) onto p
double *a;
#pragma xmp align a[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(int argc, char **argv)
{
    int i, n = 50 + argc * 7; /* not known at compile time */
    int np = xmp_num_nodes(), me = xmp_node_num(), chunk;
    double s = 0;
    long cnt = 0;
#pragma xmp template_fix t(0:n-1)
    a = (double *)xmp_malloc(xmp_desc_of(a), n);
    chunk = (n + np - 1) / np;
#pragma xmp loop on t(i)
    for (i = 0; i < n; i++) {
        a[i] = i + 1;
        CHECK(i / chunk + 1 == me);
    }
#pragma xmp loop on t(i) reduction(+:s, cnt)
    for (i = 0; i < n; i++) {
        s += a[i];
        cnt++;
    }
    CHECK(cnt == n);
    CHECK(s == (double)n * (n + 1) / 2);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
