/* Standalone reduction with location variables: reduction(max:v/who, at/) and
 * reduction(firstmin:w/wat/) and reduction(lastmax:z/zat/) across the nodes.
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
    double v = (me * 5) % 7 + 0.5 * me;  /* distinct per node */
    int who = me, at = 100 + me, wat = me, zat = me;
    int w = me > 1 ? 1 : 9, z = 4;       /* ties: w = 1 on nodes 2..P, z = 4 everywhere */
    double bv = -1; int bw = -1, k;
    for (k = 1; k <= P; k++)
        if ((k * 5) % 7 + 0.5 * k > bv) { bv = (k * 5) % 7 + 0.5 * k; bw = k; }
#pragma xmp reduction(max:v/who, at/)
#pragma xmp reduction(firstmin:w/wat/)
#pragma xmp reduction(lastmax:z/zat/)
    CHECK(v == bv && who == bw && at == 100 + bw);
    CHECK(w == (P > 1 ? 1 : 9) && wat == (P > 1 ? 2 : 1));
    CHECK(z == 4 && zat == P);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
