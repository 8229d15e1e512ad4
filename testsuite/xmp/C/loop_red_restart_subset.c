/* loop reduction over a template distributed onto a subset of the nodes: the value
 * before the loop enters the result once (restarted on the template's nodes other
 * than its first one); nodes outside the subset keep their value.
 * xmpc-test: np=3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 40
#pragma xmp nodes p(*)
#pragma xmp nodes q(2) = p(2:3)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto q
int a[N];
#pragma xmp align a[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num();
    long s = 1000, w = 1000;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = i * i;
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 0; i < N; i++)
        s += a[i];
    for (i = 0; i < N; i++)
        w += i * i;
    if (me == 2 || me == 3)
        CHECK(s == w);
    else
        CHECK(s == 1000);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
