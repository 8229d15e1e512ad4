/* shadow a[1:2] (lower 1, upper 2): reflect fills one element below and two above
 * the owned block.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 64
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
double a[N];
#pragma xmp align a[i] with t(i)
#pragma xmp shadow a[1:2]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static double f(int i) { return 0.5 * i - 7; }
int main(void)
{
    int i, me = xmp_node_num();
    double s = 0, want = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = f(i);
#pragma xmp reflect (a)
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 1; i < N - 2; i++) {
        CHECK(a[i - 1] == f(i - 1) && a[i + 1] == f(i + 1) && a[i + 2] == f(i + 2));
        s += a[i - 1] - 2 * a[i] + a[i + 2];
    }
    for (i = 1; i < N - 2; i++)
        want += f(i - 1) - 2 * f(i) + f(i + 2);
    CHECK(s == want);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
