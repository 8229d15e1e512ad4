/* xmp_array_lsize counts the shadow (as Omni's: the local layout seen through
 * xmp_array_laddr): lsize = owned + lower + upper shadow, and the owned element of
 * global index i is laddr[shadow_lo + i - first owned index].
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 20
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
int a[N];
#pragma xmp align a[i] with t(i)
#pragma xmp shadow a[2:1]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    long lo = N, hi = -1;
#pragma xmp loop on t(i)
    for (int i = 0; i < N; i++) {
        a[i] = 7 * i;
        if (i < lo) lo = i;
        if (i > hi) hi = i;
    }
    int ls = -1, sl = -1, su = -1, *l = NULL;
    CHECK(xmp_array_lsize(xmp_desc_of(a), 1, &ls) == 0);
    CHECK(xmp_array_lshadow(xmp_desc_of(a), 1, &sl) == 0 && sl == 2);
    CHECK(xmp_array_ushadow(xmp_desc_of(a), 1, &su) == 0 && su == 1);
    CHECK(xmp_array_laddr(xmp_desc_of(a), (void **)&l) == 0 && l != NULL);
    CHECK(ls == hi - lo + 1 + 3);
    for (long i = lo; i <= hi; i++)
        CHECK(l[sl + i - lo] == 7 * i);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
