/* nodes p(*): the node set takes every process; works at any size.
 * xmpc-test: np=1,2,3,4,8
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 1000
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
double a[N];
#pragma xmp align a[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, np = xmp_num_nodes(), me = xmp_node_num(), cnt = 0, chunk;
    double s = 0;
    CHECK(np == xmp_all_num_nodes());
    chunk = (N + np - 1) / np;
#pragma xmp loop on t(i) reduction(+:s, cnt)
    for (i = 0; i < N; i++) {
        a[i] = 0.5 * i;
        s += a[i];
        cnt++;
        CHECK(i / chunk + 1 == me);
    }
    CHECK(cnt == N);
    CHECK(s == 0.5 * N * (N - 1) / 2);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
