/* distribute t(gblock(m)) with an uneven mapping array (one node owns nothing).
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 50
int m[4] = {20, 0, 12, 18};
#pragma xmp nodes p(4)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(gblock(m)) onto p
double a[N];
#pragma xmp align a[i] with t(i)
#pragma xmp shadow a[1]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num(), cnt = 0;
    double s = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) {
        int o = i < 20 ? 1 : i < 32 ? 3 : 4;
        CHECK(o == me);
        a[i] = i;
        cnt++;
    }
    CHECK(cnt == m[me - 1]);
#pragma xmp reflect (a)
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 1; i < N - 1; i++)
        s += a[i - 1] + a[i + 1] - 2 * a[i];
    CHECK(s == 0);
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 0; i < N; i++)
        s += a[i];
    CHECK(s == N * (N - 1) / 2);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
