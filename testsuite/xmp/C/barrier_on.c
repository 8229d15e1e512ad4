/* barrier on p(1:2) and barrier on q (q(2) = p(3:4)) run by their members only;
 * a node outside a barrier's set must not block (node 4 skips the first one).
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(4)
#pragma xmp nodes q(2) = p(3:4)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), n = 0;
#pragma xmp barrier on p(1:2)
    n++;
#pragma xmp barrier on q
    n++;
#pragma xmp task on p(1:3)
    {
#pragma xmp barrier
        n++;
    }
#pragma xmp barrier on p
    CHECK(n == (me == 4 ? 2 : 3));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
