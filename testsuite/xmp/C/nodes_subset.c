/* nodes q(2) = p(3:4): a node set that is a subset of another; a template
 * distributed onto the subset is computed only by nodes 3 and 4.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 40
#pragma xmp nodes p(4)
#pragma xmp nodes q(2) = p(3:4)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto q
int a[N];
#pragma xmp align a[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num(), cnt = 0, s = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) {
        a[i] = i;
        cnt++;
        CHECK(me == 3 + i / (N / 2));
    }
    if (me <= 2) CHECK(cnt == 0);
    else CHECK(cnt == N / 2);
#pragma xmp task on q
    {
#pragma xmp loop on t(i) reduction(+:s)
        for (i = 0; i < N; i++)
            s += a[i];
        CHECK(s == N * (N - 1) / 2);
        CHECK(xmp_num_nodes() == 2);
    }
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
