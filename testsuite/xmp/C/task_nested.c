/* Nested tasks: task on p(1:4) inside which task on p(3:4) of the same node set;
 * the inner body's executing set has 2 nodes; a reduction inside sums node
 * numbers relative to the outer set.
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
    int me = xmp_node_num(), x = 0, inner = 0;
#pragma xmp task on p(1:4)
    {
#pragma xmp task on p(3:4)
        {
            inner = xmp_num_nodes();
            x = xmp_all_node_num();
#pragma xmp reduction(+:x)
        }
    }
    CHECK(inner == (me >= 3 ? 2 : 0));
    CHECK(x == (me >= 3 ? 7 : 0));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
