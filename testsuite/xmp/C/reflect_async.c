/* reflect (a) async(7) overlapped with interior work, completed by wait_async(7);
 * two arrays in flight under two ids.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 200
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
double a[N], b[N], w[N];
#pragma xmp align [i] with t(i) :: a, b, w
#pragma xmp shadow a[1]
#pragma xmp shadow b[1]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num();
    double s = 0, want = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) { a[i] = i; b[i] = -2.0 * i; }
#pragma xmp reflect (a) async(7)
#pragma xmp reflect (b) async(8)
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        w[i] = 3 * a[i];
#pragma xmp wait_async(7, 8)
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 1; i < N - 1; i++)
        s += a[i - 1] + a[i + 1] + b[i - 1] + b[i + 1] + w[i];
    for (i = 1; i < N - 1; i++)
        want += (i - 1) + (i + 1) - 2.0 * (i - 1) - 2.0 * (i + 1) + 3.0 * i;
    CHECK(s == want);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
