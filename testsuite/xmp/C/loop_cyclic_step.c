/* loop on a cyclic and a cyclic(4) template with steps 1 and 2 and offset starts:
 * the schedule must hit exactly the written indices.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 90
#pragma xmp nodes p(*)
#pragma xmp template tc(0:N-1)
#pragma xmp template tw(0:N-1)
#pragma xmp distribute tc(cyclic) onto p
#pragma xmp distribute tw(cyclic(4)) onto p
int a[N], b[N];
#pragma xmp align a[i] with tc(i)
#pragma xmp align b[i] with tw(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num(), P = xmp_num_nodes();
    long s1 = 0, s2 = 0, s3 = 0, w1 = 0, w2 = 0, w3 = 0;
#pragma xmp loop on tc(i)
    for (i = 0; i < N; i++) { a[i] = i * 3; CHECK(i % P + 1 == me); }
#pragma xmp loop on tw(i)
    for (i = 0; i < N; i++) { b[i] = i * 5; CHECK((i / 4) % P + 1 == me); }
#pragma xmp loop on tc(i) reduction(+:s1)
    for (i = 7; i < N - 3; i += 2)
        s1 += a[i];
#pragma xmp loop on tw(i) reduction(+:s2)
    for (i = 3; i <= N - 1; i += 2)
        s2 += b[i];
#pragma xmp loop on tw(i) reduction(+:s3)
    for (i = 1; i < N; i++)
        s3 += b[i];
    for (i = 7; i < N - 3; i += 2) w1 += i * 3;
    for (i = 3; i <= N - 1; i += 2) w2 += i * 5;
    for (i = 1; i < N; i++) w3 += i * 5;
    CHECK(s1 == w1 && s2 == w2 && s3 == w3);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
