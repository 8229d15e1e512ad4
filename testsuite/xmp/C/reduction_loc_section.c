/* reduction(max:m/i,k[1][:]/): location variables written as array sections (XMP 2.0,
 * Omni's reduction/max_loc test). Every node gets the winning node's scalar location
 * and sections; ties go to the smallest scalar location, then the first node.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p[*]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num() - 1, np = xmp_num_nodes();
    int k[4][6], col[5][3];
    int m = (me * 7) % 5 + 10 * (me == np / 2);   /* node np/2 holds the maximum */
    int lo = 100 - me;                             /* the last node holds the minimum */
    long where = me;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++)
            k[i][j] = 100 * me + 10 * i + j;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 3; j++)
            col[i][j] = 1000 * me + 10 * i + j;
#pragma xmp reduction(max:m/where,k[1][:],col[:][2]/)
    int w = np / 2;
    CHECK(m == (w * 7) % 5 + 10);
    CHECK(where == w);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++)
            CHECK(k[i][j] == 100 * (i == 1 ? w : me) + 10 * i + j);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 3; j++)
            CHECK(col[i][j] == 1000 * (j == 2 ? w : me) + 10 * i + j);
    int t = 5, u[3] = {me, me, me};
#pragma xmp reduction(min:t/u[0:2]/)
    CHECK(t == 5 && u[0] == 0 && u[1] == 0 && u[2] == me);
#pragma xmp reduction(min:lo/k[3][1:2]/)
    CHECK(lo == 100 - (np - 1));
    CHECK(k[3][1] == 100 * (np - 1) + 31 && k[3][2] == 100 * (np - 1) + 32 && k[3][0] == 100 * me + 30);
    if (nerr) exit(1);
    if (me == 0) printf("PASS\n");
    return 0;
}
