/* Omni's meaning of `on` references: `bcast ... on p[a:n]` sends from the first node of
 * the `on` set; `on t[...]` names the nodes owning those template indices (bcast and
 * reduction); a strided square node triplet `p[0:n:2]` counts n positions and positions
 * past the end of the dimension select nothing.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <xmp.h>
#define N 16
#pragma xmp nodes p[*]
#pragma xmp template t[N]
#pragma xmp distribute t[block] onto p
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), np = xmp_num_nodes(), x, y, s, k = 0, i;
    double v[3];
    x = me;
#pragma xmp bcast (x) on p[1:np-2]
    if (me >= 2 && me <= np - 1)
        CHECK(x == 2);
    else
        CHECK(x == me);
    y = me;
#pragma xmp bcast (y) on t[N/2:N/2]
    if (me > np / 2)
        CHECK(y == np / 2 + 1);
    else
        CHECK(y == me);
    y = me;
#pragma xmp bcast (y) from p[np-1] on t[:]
    CHECK(y == np);
    for (i = 0; i < 3; i++)
        v[i] = me * (i + 1);
#pragma xmp bcast (v) on t[N-1]
    CHECK(v[2] == 3.0 * me);
    s = me;
#pragma xmp reduction(+:s) on t[0:N/2]
    if (me <= np / 2)
        CHECK(s == np / 2 * (np / 2 + 1) / 2);
    else
        CHECK(s == me);
#pragma xmp task on p[0:np:2]
    {
        k = 1;
    }
    CHECK(k == (me % 2 == 1));
#pragma xmp barrier on t[1:2]
#pragma xmp reduction(+:nerr)
    if (me == 1 && nerr == 0)
        printf("PASS\n");
    return nerr != 0;
}
