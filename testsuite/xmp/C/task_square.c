/* Square task spelling: task on p[1:2] (start 1, length 2: the 2nd and 3rd nodes),
 * task on p[3], and a tasks block with task on p[0:2] and p[2:2].
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
    int a = 0, b = 0, c = 0, me0 = -1, k;
    for (k = 0; k < 4; k++) {
#pragma xmp task on p[k]
        me0 = k;
    }
#pragma xmp task on p[1:2]
    {
        a = 1;
        CHECK(xmp_num_nodes() == 2);
    }
#pragma xmp task on p[3]
    b = 1;
#pragma xmp tasks
    {
#pragma xmp task on p[0:2]
        c = 1;
#pragma xmp task on p[2:2]
        c = 2;
    }
    CHECK(me0 >= 0);
    CHECK(a == (me0 == 1 || me0 == 2));
    CHECK(b == (me0 == 3));
    CHECK(c == (me0 < 2 ? 1 : 2));
    if (nerr) exit(1);
#pragma xmp task on p[0]
    printf("PASS\n");
    return 0;
}
