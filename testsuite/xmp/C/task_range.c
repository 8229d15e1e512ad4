/* task on p(2:4): a range of nodes becomes the executing set (renumbered from 1);
 * collectives inside use it; a strided range p(1:4:2).
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(4)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), in1 = 0, in2 = 0, s = 0, b = 0;
#pragma xmp task on p(2:4)
    {
        in1 = 1;
        CHECK(xmp_num_nodes() == 3 && xmp_node_num() == me - 1);
        s = me;
#pragma xmp reduction(+:s)
        b = me;
#pragma xmp bcast (b)
    }
#pragma xmp task on p(1:4:2)
    {
        in2 = 1;
        CHECK(xmp_num_nodes() == 2 && xmp_node_num() == (me + 1) / 2);
    }
    CHECK(in1 == (me >= 2) && in2 == (me % 2 == 1));
    if (in1) CHECK(s == 9 && b == 2);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
