/* A 1-D node set mapped onto a row of a 2-D one: r(2) = p(1:2, 2), and
 * w(2,2) = * (the whole set). Tasks on the subsets run on the right nodes.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(2,2)
#pragma xmp nodes r(2) = p(1:2, 2)
#pragma xmp nodes w(2,2) = *
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), inr = 0, inw = 0, x = 0;
#pragma xmp task on r
    {
        inr = 1;
        x = me;
#pragma xmp reduction(+:x)
    }
#pragma xmp task on w(2,2)
    inw = 1;
    CHECK(inr == (me >= 3));
    if (inr) CHECK(x == 7);
    CHECK(inw == (me == 4));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
