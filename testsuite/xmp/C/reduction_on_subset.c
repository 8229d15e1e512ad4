/* reduction(+:x) on p(2:3) and reduction(max:y) on q where q(2) = p(3:4):
 * only the named nodes take part; the others keep their values.
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
    int me = xmp_node_num(), x = me * 10, y = me;
#pragma xmp reduction(+:x) on p(2:3)
#pragma xmp reduction(max:y) on q
    CHECK(x == (me == 2 || me == 3 ? 50 : me * 10));
    CHECK(y == (me >= 3 ? 4 : me));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
