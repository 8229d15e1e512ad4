/* Omni compatibility: a directive after `#include <...>` with trailing blanks is kept,
 * xmp_node_num() is 1-based under square-bracket nodes as in Omni, and the upper-case
 * reduction operators MAX/MIN are accepted.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>      
#pragma xmp nodes p[*]
#include <xmp.h>
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), np = xmp_num_nodes(), hi = me, lo = me, ranks = 0;
    CHECK(me >= 1 && me <= np);
#pragma xmp reduction(MAX:hi)
#pragma xmp reduction(MIN:lo)
    CHECK(hi == np);
    CHECK(lo == 1);
    ranks = me;
#pragma xmp reduction(+:ranks)
    CHECK(ranks == np * (np + 1) / 2);
#pragma xmp task on p[0]
    CHECK(xmp_node_num() == 1);
#pragma xmp reduction(+:nerr)
    if (me == 1 && nerr == 0) printf("PASS\n");
    return nerr != 0;
}
