/* bcast of array sections (Omni accepts them): a[2:5] is 5 elements from a[2];
 * b[s:len][:] whole rows; c[:][1:2] a block in every row; d[0:3:2] a strided section.
 * xmpc-test: np=1,3
 */
#include <stdio.h>
#include <xmp.h>
#pragma xmp nodes p[*]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), np = xmp_num_nodes(), i, j, s = 1, len = 2;
    int a[10], b[5][4], c[3][4], d[6];
    for (i = 0; i < 10; i++)
        a[i] = me * 100 + i;
    for (i = 0; i < 5; i++)
        for (j = 0; j < 4; j++)
            b[i][j] = me * 100 + i * 10 + j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++)
            c[i][j] = me * 100 + i * 10 + j;
    for (i = 0; i < 6; i++)
        d[i] = me * 100 + i;
#pragma xmp bcast (a[2:5])
#pragma xmp bcast (b[s:len][:]) from p[np-1]
#pragma xmp bcast (c[:][1:2], d[0:3:2])
    for (i = 0; i < 10; i++)
        CHECK(a[i] == (i >= 2 && i < 7 ? 100 : me * 100) + i);
    for (i = 0; i < 5; i++)
        for (j = 0; j < 4; j++)
            CHECK(b[i][j] == (i >= s && i < s + len ? np * 100 : me * 100) + i * 10 + j);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++)
            CHECK(c[i][j] == (j >= 1 && j <= 2 ? 100 : me * 100) + i * 10 + j);
    for (i = 0; i < 6; i++)
        CHECK(d[i] == (i % 2 == 0 && i <= 4 ? 100 : me * 100) + i);
#pragma xmp reduction(+:nerr)
    if (me == 1 && nerr == 0)
        printf("PASS\n");
    return nerr != 0;
}
