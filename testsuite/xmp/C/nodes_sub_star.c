/* `nodes row[2] = p[0:2][*]`: the `*` of a node reference is the executing node's own
 * index in that dimension, so each node's `row` is the row of p holding it (it was
 * taken as the whole dimension: a 4-node set that does not match row[2]).
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <xmp.h>
#pragma xmp nodes p[2][2]
#pragma xmp nodes row[2] = p[0:2][*]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), s = me;
    /* p[i][j] is node 2*i + j + 1 (the last C subscript varies fastest), so `row` is
     * {p[0][j], p[1][j]} for this node's j: nodes {1, 3} or {2, 4}. */
#pragma xmp reduction(+:s) on row
    CHECK(s == (me % 2 == 1 ? 1 + 3 : 2 + 4));
    s = me;
    /* p[*][0:2]: this node's i, every j: nodes {1, 2} or {3, 4}. */
#pragma xmp reduction(+:s) on p[*][0:2]
    CHECK(s == (me <= 2 ? 1 + 2 : 3 + 4));
#pragma xmp reduction(+:nerr)
    if (me == 1 && nerr == 0)
        printf("PASS\n");
    return nerr != 0;
}
