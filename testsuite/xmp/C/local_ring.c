/* Local view: a token passed around a ring of images with coindexed puts. Each round
 * every image puts (its value + its image number) into the right neighbour's slot for
 * that round; after R rounds slot r on image i holds a closed form.
 * xmpc-test: np=1,2,4,8
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define R 20
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
long slot[R + 1]:[*];
int main(void)
{
    int me = xmpc_this_image(), n = xmp_num_images();
    int right = (me + 1) % n;
    CHECK(xmp_this_image() == me + 1);
    slot[0] = me;
    xmp_sync_all(NULL);
    for (int r = 0; r < R; r++) {
        long v = slot[r] + me;
        slot[r + 1]:[right] = v; /* put one element */
        xmp_sync_all(NULL);
    }
    /* slot[r] on image i = (i - r mod n) + sum_{k=1..r} image (i - k) mod n */
    for (int r = 0; r <= R; r++) {
        long want = ((me - r) % n + n) % n;
        for (int k = 1; k <= r; k++)
            want += ((me - k) % n + n) % n;
        CHECK(slot[r] == want);
    }
    /* the same values read back with gets from the left neighbour */
    int left = (me + n - 1) % n;
    long got = slot[R]:[left];
    long want = ((left - R) % n + n) % n;
    for (int k = 1; k <= R; k++)
        want += ((left - k) % n + n) % n;
    CHECK(got == want);
    xmp_sync_all(NULL);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 0) printf("PASS\n");
    return 0;
}
