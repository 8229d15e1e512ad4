/* loop on t(i) over partial ranges, <= bounds, and a step of 3: each node runs
 * exactly its share of the written iteration space.
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
int main(void)
{
    int i, me = xmp_node_num();
    long s1 = 0, s2 = 0, s3 = 0, c3 = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = i;
#pragma xmp loop on t(i) reduction(+:s1)
    for (i = 17; i < 83; i++)
        s1 += a[i];
#pragma xmp loop on t(i) reduction(+:s2)
    for (i = 5; i <= 95; i++)
        s2 += a[i];
#pragma xmp loop on t(i) reduction(+:s3, c3)
    for (i = 2; i < N; i += 3) {
        s3 += a[i];
        c3++;
    }
    {
        long w1 = 0, w2 = 0, w3 = 0, wc = 0;
        for (i = 17; i < 83; i++) w1 += i;
        for (i = 5; i <= 95; i++) w2 += i;
        for (i = 2; i < N; i += 3) { w3 += i; wc++; }
        CHECK(s1 == w1 && s2 == w2 && s3 == w3 && c3 == wc);
    }
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
