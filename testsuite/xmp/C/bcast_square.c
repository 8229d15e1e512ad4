/* Square spelling: bcast (x) from p[2] (the third node) and from p[1] on p[1:3].
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p[4]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me0 = -1, x, y;
#pragma xmp task on p[0]
    me0 = 0;
#pragma xmp task on p[1]
    me0 = 1;
#pragma xmp task on p[2]
    me0 = 2;
#pragma xmp task on p[3]
    me0 = 3;
    x = me0 * 11;
    y = me0 * 7;
#pragma xmp bcast (x) from p[2]
#pragma xmp bcast (y) from p[1] on p[1:3]
    CHECK(x == 22);
    CHECK(y == (me0 == 0 ? 0 : 7));
    if (nerr) exit(1);
#pragma xmp task on p[0]
    printf("PASS\n");
    return 0;
}
