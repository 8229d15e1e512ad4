/* task on p(k): the next statement or block runs on node k only; inside, the
 * executing node set is {k}: xmp_num_nodes() == 1, xmp_node_num() == 1, while
 * xmp_all_node_num() still gives k.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(*)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), P = xmp_num_nodes(), ran = 0, k;
    for (k = 1; k <= P; k++) {
#pragma xmp task on p(k)
        {
            ran++;
            CHECK(xmp_num_nodes() == 1);
            CHECK(xmp_node_num() == 1);
            CHECK(xmp_all_node_num() == k);
        }
    }
    CHECK(ran == 1);
    CHECK(xmp_num_nodes() == P && xmp_node_num() == me);
#pragma xmp task on p(P)
    ran += 10;
    CHECK(ran == (me == P ? 11 : 1));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
