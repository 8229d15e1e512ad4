/* shadow a[1] + reflect (a): after the reflect every node reads its neighbours'
 * boundary elements through a[i-1] and a[i+1]; a 3-point sum is compared with
 * the closed form.
 * xmpc-test: np=1,2,3,4,8
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 97
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
long a[N];
#pragma xmp align a[i] with t(i)
#pragma xmp shadow a[1]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static long f(int i) { return (long)i * i + 3; }
int main(void)
{
    int i, me = xmp_node_num();
    long s = 0, want = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = f(i);
#pragma xmp reflect (a)
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 1; i < N - 1; i++) {
        CHECK(a[i - 1] == f(i - 1) && a[i + 1] == f(i + 1));
        s += a[i - 1] + a[i] + a[i + 1];
    }
    for (i = 1; i < N - 1; i++)
        want += f(i - 1) + f(i) + f(i + 1);
    CHECK(s == want);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
