/* Square spelling: reduction(+:x) on p[1:2] (nodes 1 and 2 counted from 0, i.e.
 * the 2nd and 3rd) and on the whole set p.
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
    x = me0 + 1;
    y = 1 << me0;
#pragma xmp reduction(+:x) on p[1:2]
#pragma xmp reduction(|:y) on p
    CHECK(x == (me0 == 1 || me0 == 2 ? 5 : me0 + 1));
    CHECK(y == 15);
    if (nerr) exit(1);
#pragma xmp task on p[0]
    printf("PASS\n");
    return 0;
}
