/* template t(10:109): a template whose lower bound is not 0; an array aligned
 * with offset -10 (a[i] with t(i+10)) and loops over the template's global range.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 100
#pragma xmp nodes p(*)
#pragma xmp template t(10:109)
#pragma xmp distribute t(block) onto p
int a[N];
#pragma xmp align a[i] with t(i+10)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, np = xmp_num_nodes(), me = xmp_node_num(), chunk = (N + np - 1) / np;
    long s = 0, cnt = 0;
#pragma xmp loop on t(i)
    for (i = 10; i <= 109; i++) {
        a[i - 10] = i;
        CHECK((i - 10) / chunk + 1 == me);
    }
#pragma xmp loop on t(i+10) reduction(+:s, cnt)
    for (i = 0; i < N; i++) {
        s += a[i];
        cnt++;
    }
    CHECK(cnt == N);
    CHECK(s == (10 + 109) * N / 2);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
