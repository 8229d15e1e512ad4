/* Local view: a flag handoff with the atomic routines. Each round image 0 puts a
 * block into every other image's buffer, then sets that image's flag with
 * xmp_atomic_define(flag:[k], round); each image spins on xmp_atomic_ref of its own
 * flag, checks the block and acknowledges with xmp_atomic_define(ack[me]:[0], round),
 * which image 0 polls with xmp_atomic_ref before the next round.
 * xmpc-test: np=2,4,8
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define K 8
#define B 32
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int flag:[*];
int ack[8]:[*];
double buf[B]:[*];
int main(void)
{
    int me = xmpc_this_image(), n = xmp_num_images();
    double blk[B];
    xmp_atomic_define(flag, 0);
    for (int k = 0; k < 8; k++) xmp_atomic_define(ack[k], 0);
    xmp_sync_all(NULL);
    for (int r = 1; r <= K; r++) {
        if (me == 0) {
            for (int k = 1; k < n; k++) {
                for (int i = 0; i < B; i++) blk[i] = r * 1000.0 + k * 10.0 + i * 0.25;
                buf[0:B]:[k] = blk[0:B];
                xmp_sync_memory(NULL);
                xmp_atomic_define(flag:[k], r);
            }
            for (int k = 1; k < n; k++) {
                int v = 0;
                while (v != r) xmp_atomic_ref(&v, ack[k]);
            }
        } else {
            int v = 0;
            while (v != r) xmp_atomic_ref(&v, flag);
            xmp_sync_memory(NULL);
            for (int i = 0; i < B; i++) CHECK(buf[i] == r * 1000.0 + me * 10.0 + i * 0.25);
            xmp_atomic_define(ack[me]:[0], r);
        }
    }
    xmp_sync_all(NULL);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 0) printf("PASS\n");
    return 0;
}
