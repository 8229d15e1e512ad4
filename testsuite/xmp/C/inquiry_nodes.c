/* xmp_node_num / xmp_num_nodes / xmp_all_node_num / xmp_all_num_nodes at top level
 * and inside a task; the node numbers are a permutation of 1..P (their sum and
 * sum of squares are checked with a reduction).
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(*)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), P = xmp_num_nodes();
    long s = me, s2 = (long)me * me;
    CHECK(P == xmp_all_num_nodes());
    CHECK(me == xmp_all_node_num());
    CHECK(me >= 1 && me <= P);
#pragma xmp reduction(+:s, s2)
    CHECK(s == (long)P * (P + 1) / 2);
    CHECK(s2 == (long)P * (P + 1) * (2 * P + 1) / 6);
    if (P > 1) {
#pragma xmp task on p(2:P)
        {
            CHECK(xmp_num_nodes() == P - 1);
            CHECK(xmp_node_num() == me - 1);
            CHECK(xmp_all_node_num() == me && xmp_all_num_nodes() == P);
        }
    }
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
