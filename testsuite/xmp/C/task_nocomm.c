/* task on p(2) nocomm and task on p(1:2) nocomm: bodies run on the named nodes
 * without creating a communicator (no collectives inside).
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(*)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), x = 0, y = 0, k;
    for (k = 0; k < 100; k++) {
#pragma xmp task on p(2) nocomm
        x++;
#pragma xmp task on p(1:2) nocomm
        y += 2;
    }
    CHECK(x == (me == 2 ? 100 : 0));
    CHECK(y == (me <= 2 ? 200 : 0));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
