/* nodes p(4): a static 1-D node set; xmp_num_nodes/xmp_node_num and a block
 * loop whose owner of every index is checked against the closed form.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 100
#pragma xmp nodes p(4)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
int a[N];
#pragma xmp align a[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num(), cnt = 0;
    CHECK(xmp_num_nodes() == 4);
    CHECK(me >= 1 && me <= 4);
#pragma xmp loop on t(i) reduction(+:cnt)
    for (i = 0; i < N; i++) {
        a[i] = i;
        CHECK(i / 25 + 1 == me);
        cnt++;
    }
    CHECK(cnt == N);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
