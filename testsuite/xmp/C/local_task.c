/* Local view inside a task: image numbers, xmp_num_images and xmp_sync_all count the
 * task's nodes. In `task on p[2:2]` image 0 is node 2 and image 1 node 3; a put to
 * image 1 there must land on node 3, not on node 1.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p[4]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int slot[2]:[*];
int main(void)
{
    int node = xmp_node_num() - 1; /* 0-based node of p */
    slot[0] = -1;
    slot[1] = -1;
    xmp_sync_all(NULL);
#pragma xmp task on p[2:2]
    {
        int me = xmpc_this_image();
        CHECK(xmp_num_images() == 2);
        CHECK(me == node - 2);
        if (me == 0) slot[0]:[1] = 100 + node;
        xmp_sync_all(NULL); /* the task's two nodes only */
        if (me == 1) CHECK(slot[0] == 102);
        int v = slot[1]:[1 - me]; /* get from the other task image: -1 */
        xmp_sync_all(NULL);
        slot[1] = v + 10;
    }
    xmp_sync_all(NULL);
    CHECK(slot[0] == (node == 3 ? 102 : -1));
    CHECK(slot[1] == (node >= 2 ? 9 : -1));
    CHECK(xmp_num_images() == 4 && xmpc_this_image() == node);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (node == 0) printf("PASS\n");
    return 0;
}
