/* Local view: producer/consumer with post/wait. Image 0 produces K batches for
 * image 1 (a put of a batch into image 1's buffer, then post); image 1 waits, checks
 * the batch, consumes it and posts back an acknowledgement that frees the buffer.
 * Other images exchange posts with tags and wait for any post.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define K 50
#define B 16
#pragma xmp nodes p[*]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int buf[B]:[*];
int main(void)
{
    int me = xmpc_this_image(), n = xmp_num_images();
    long sum = 0;
    int batch[B];
    for (int k = 0; k < K; k++) {
        if (me == 0) {
            for (int i = 0; i < B; i++) batch[i] = k * B + i;
            buf[0:B]:[1] = batch[0:B];
#pragma xmp post (p[1], 1)
#pragma xmp wait (p[1], 2)
        } else if (me == 1) {
#pragma xmp wait (p[0], 1)
            for (int i = 0; i < B; i++) {
                CHECK(buf[i] == k * B + i);
                sum += buf[i];
            }
#pragma xmp post (p[0], 2)
        }
    }
    if (me == 1) CHECK(sum == (long)K * B * (K * B - 1) / 2);
    /* every image posts once to every other one (1-based spelling p(k)), then waits for n-1 posts from anyone */
    for (int j = 0; j < n; j++)
        if (j != me) {
            int one_based = j + 1;
#pragma xmp post (p(one_based), 7)
        }
    for (int j = 0; j < n - 1; j++) {
#pragma xmp wait
    }
    xmp_sync_all(NULL);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 0) printf("PASS\n");
    return 0;
}
