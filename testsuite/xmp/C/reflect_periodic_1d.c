/* reflect (a) width(/periodic/1): the first node's lower shadow receives the last
 * element and the last node's upper shadow the first (a ring); a periodic 3-point
 * sum over all of 0..N-1.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 50
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
long a[N];
#pragma xmp align a[i] with t(i)
#pragma xmp shadow a[1]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static long f(int i) { return 7L * i + 1; }
int main(void)
{
    int i, me = xmp_node_num();
    long s = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = f(i);
#pragma xmp reflect (a) width(/periodic/1)
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 0; i < N; i++) {
        CHECK(a[i - 1] == f((i - 1 + N) % N));
        CHECK(a[i + 1] == f((i + 1) % N));
        s += a[i - 1] + a[i + 1];
    }
    CHECK(s == 2 * (7L * N * (N - 1) / 2 + N));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
