/* Local view: a counter on image 0 incremented K times by every image with a
 * read-modify-write (get, +1, put) under lock/unlock; without the lock the updates
 * would be lost. The final count is K * images.
 * xmpc-test: np=1,2,4,8
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define K 40
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
xmp_lock_t lk:[*];
long counter:[*];
long log_[2]:[*];
int main(void)
{
    int me = xmpc_this_image(), n = xmp_num_images();
    counter = 0;
    xmp_sync_all(NULL);
    for (int k = 0; k < K; k++) {
#pragma xmp lock(lk:[0])
        long c = counter:[0];
        counter:[0] = c + 1;
        log_[1]:[0] = me; /* the last holder */
#pragma xmp unlock(lk:[0])
    }
    xmp_sync_all(NULL);
    if (me == 0) {
        CHECK(counter == (long)K * n);
        CHECK(log_[1] >= 0 && log_[1] < n);
    }
    CHECK(counter:[0] == (long)K * n);
    xmp_sync_all(NULL);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 0) printf("PASS\n");
    return 0;
}
