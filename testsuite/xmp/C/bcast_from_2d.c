/* bcast from a node of a 2-D set: from p(2,1) (node 2) and from p(1,2) (node 3).
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(2,2)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), x = me, y = me;
#pragma xmp bcast (x) from p(2,1)
#pragma xmp bcast (y) from p(1,2) on p
    CHECK(x == 2);
    CHECK(y == 3);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
