/* distribute t(block): contiguous chunks of ceil(N/P).
 * Every iteration of a loop on the template runs exactly once, on the node the
 * closed form names; values written through the local storage read back.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 101
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
long a[N];
#pragma xmp align a[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, P = xmp_num_nodes(), me = xmp_node_num(), cnt = 0;
    long s = 0, want = 0;
    (void)P;
#pragma xmp loop on t(i) reduction(+:cnt)
    for (i = 0; i < N; i++) {
        CHECK((i / ((N + P - 1) / P) + 1) == me);
        a[i] = 3L * i + 1;
        cnt++;
    }
    CHECK(cnt == N);
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 0; i < N; i++) {
        CHECK(a[i] == 3L * i + 1);
        s += a[i] * (i % 7);
    }
    for (i = 0; i < N; i++)
        want += (3L * i + 1) * (i % 7);
    CHECK(s == want);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
