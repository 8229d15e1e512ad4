/* loop reduction(firstmax:v/loc/): values repeat every 10 indices, so the extreme occurs
 * 10 times; firstmax must return the first occurrence. Each node records its own
 * first local occurrence (comparison >); block distribution keeps node order =
 * index order.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 100
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
int a[N];
#pragma xmp align a[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static int f(int i) { return (i * 3) % 10; }
int main(void)
{
    int i, me = xmp_node_num(), v = -1, loc = -1, wv = -1, wloc = -1;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = f(i);
#pragma xmp loop on t(i) reduction(firstmax:v/loc/)
    for (i = 0; i < N; i++)
        if (a[i] > v) { v = a[i]; loc = i; }
    for (i = 0; i < N; i++)
        if (f(i) > wv) { wv = f(i); wloc = i; }
    CHECK(v == wv);
    CHECK(loc == wloc);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
