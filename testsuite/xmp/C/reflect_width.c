/* shadow a[2] with reflect (a) width(1): only the first shadow element on each
 * side is refreshed; the second keeps the value of the previous full reflect.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 40
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
int a[N];
#pragma xmp align a[i] with t(i)
#pragma xmp shadow a[2]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num(), P = xmp_num_nodes(), chunk = (N + P - 1) / P;
    int lo = (me - 1) * chunk, hi = lo + chunk - 1;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = i;
#pragma xmp reflect (a)
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = 1000 + i;
#pragma xmp reflect (a) width(1)
#pragma xmp loop on t(i)
    for (i = 2; i < N - 2; i++) {
        if (i == lo) {
            CHECK(a[i - 1] == 1000 + i - 1);
            CHECK(a[i - 2] == i - 2);
        }
        if (i == hi) {
            CHECK(a[i + 1] == 1000 + i + 1);
            CHECK(a[i + 2] == i + 2);
        }
    }
#pragma xmp reflect (a) width(2:1)
#pragma xmp loop on t(i)
    for (i = 2; i < N - 2; i++) {
        if (i == lo)
            CHECK(a[i - 2] == 1000 + i - 2);
        if (i == hi)
            CHECK(a[i + 2] == i + 2);
    }
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
