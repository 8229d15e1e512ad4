/* bcast (x) from p(3) on p(2:4): only nodes 2..4 take part (node 1 keeps its value);
 * bcast from q(2) on q with q(2) = p(1:2).
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(4)
#pragma xmp nodes q(2) = p(1:2)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), x = me * 10, y = me * 100;
#pragma xmp bcast (x) from p(3) on p(2:4)
#pragma xmp bcast (y) from q(2) on q
    CHECK(x == (me == 1 ? 10 : 30));
    CHECK(y == (me <= 2 ? 200 : me * 100));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
