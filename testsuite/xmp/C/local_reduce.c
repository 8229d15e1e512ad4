/* Local view: reductions written with coarrays. (1) every image gets every other
 * image's partial sum after sync_all; (2) a binomial-tree sum towards image 0 with
 * sync_images between the pairs; (3) the maximum with a gathered section. All compared
 * with closed forms.
 * xmpc-test: np=1,2,3,4,8
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define L 100
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
double part:[*];
double acc:[*];
int vals[8]:[*];
int main(void)
{
    int me = xmpc_this_image(), n = xmp_num_images();
    part = 0;
    for (int i = 0; i < L; i++) part += me * L + i; /* my slice of 0 .. n*L-1 */
    acc = part;
    vals[0] = (me * 37) % 11;
    xmp_sync_all(NULL);
    double total = 0;
    for (int j = 0; j < n; j++) total += part:[(me + j) % n];
    double want = (double)n * L * (n * L - 1) / 2;
    CHECK(total == want);
    /* binomial tree */
    for (int s = 1; s < n; s *= 2) {
        if (me % (2 * s) == 0 && me + s < n) {
            int peer = me + s;
            xmp_sync_images(1, &peer, NULL); /* peer's acc is final */
            acc += acc:[peer];
        } else if (me % (2 * s) == s) {
            int peer = me - s;
            xmp_sync_images(1, &peer, NULL);
        }
    }
    xmp_sync_all(NULL);
    CHECK(acc:[0] == want);
    /* max over images: image 0 gathers vals[0] of everyone into its vals[1..] one at a time */
    int mx = -1;
    for (int j = 0; j < n; j++) {
        int v = vals[0]:[j];
        if (v > mx) mx = v;
    }
    int wmx = -1;
    for (int j = 0; j < n; j++) if ((j * 37) % 11 > wmx) wmx = (j * 37) % 11;
    CHECK(mx == wmx);
    xmp_sync_all(NULL);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 0) printf("PASS\n");
    return 0;
}
