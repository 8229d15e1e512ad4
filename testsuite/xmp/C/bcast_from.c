/* bcast (x) from p(3), then from p(P) (the last node, a run-time expression).
 * xmpc-test: np=3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(*)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), P = xmp_num_nodes(), x = me * me, y = -me;
    struct { int a; double b; } s = { me, me * 0.25 };
#pragma xmp bcast (x) from p(3)
#pragma xmp bcast (y, s) from p(P)
    CHECK(x == 9);
    CHECK(y == -P && s.a == P && s.b == P * 0.25);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
