/* Distributed arrays declared inside a function (align/shadow on locals), used by
 * a loop and a reflect; the function is called twice with different data.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 45
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static long work(int scale)
{
    int i;
    long a[N], s = 0;
#pragma xmp align a[i] with t(i)
#pragma xmp shadow a[1]
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = (long)scale * i;
#pragma xmp reflect (a)
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 1; i < N - 1; i++)
        s += a[i - 1] + a[i + 1];
    return s;
}
int main(void)
{
    int me = xmp_node_num();
    long w = 0;
    int i;
    for (i = 1; i < N - 1; i++) w += 2L * i;
    CHECK(work(1) == w);
    CHECK(work(3) == 3 * w);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
