/* Local view: a 2-D wavefront (a[i][j] = f(a[i-1][j], a[i][j-1])) over column blocks
 * of images, pipelined in row chunks: image k computes a chunk of rows, puts its last
 * column of that chunk into image k+1's halo coarray and posts with the chunk as the
 * tag; image k+1 waits for that tag before computing the chunk. A second sweep runs
 * backwards (right to left) with gets: image k waits for image k+1's post, then gets
 * the chunk of that image's first column. Both are compared with a sequential sweep
 * of the whole grid.
 * xmpc-test: np=1,2,4,8
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 24 /* rows */
#define B 5  /* columns per image */
#define R 4  /* rows per chunk */
#define MOD 1000003
#pragma xmp nodes p[*]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int halo[N]:[*];
int first[N]:[*];
static int f(int up, int left, int i, int j) { return (int)(((long)up * 3 + (long)left * 5 + i + 7 * j + 1) % MOD); }
int main(void)
{
    int me = xmpc_this_image(), n = xmp_num_images(), W = n * B;
    static int g[N][8 * B], a[N][B];
    /* sequential reference, forward: row 0 and column -1 are 1 */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < W; j++)
            g[i][j] = f(i ? g[i - 1][j] : 1, j ? g[i][j - 1] : 1, i, j);
    for (int c = 0; c < N / R; c++) {
        if (me > 0) {
#pragma xmp wait (p[me - 1], c)
        }
        int col[R];
        for (int i = c * R; i < c * R + R; i++) {
            for (int j = 0; j < B; j++) {
                int left = j ? a[i][j - 1] : (me ? halo[i] : 1);
                a[i][j] = f(i ? a[i - 1][j] : 1, left, i, me * B + j);
            }
            col[i - c * R] = a[i][B - 1];
        }
        if (me < n - 1) {
            halo[c * R:R]:[me + 1] = col[0:R];
#pragma xmp post (p[me + 1], c)
        }
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < B; j++)
            CHECK(a[i][j] == g[i][me * B + j]);
    xmp_sync_all(NULL);
    /* backward: column W is 1, a[i][j] = f(a[i-1][j], a[i][j+1]) */
    for (int i = 0; i < N; i++)
        for (int j = W - 1; j >= 0; j--)
            g[i][j] = f(i ? g[i - 1][j] : 1, j < W - 1 ? g[i][j + 1] : 1, i, j);
    for (int c = 0; c < N / R; c++) {
        int right[R];
        if (me < n - 1) {
#pragma xmp wait (p[me + 1], 100 + c)
            right[0:R] = first[c * R:R]:[me + 1];
        }
        for (int i = c * R; i < c * R + R; i++) {
            for (int j = B - 1; j >= 0; j--) {
                int r = j < B - 1 ? a[i][j + 1] : (me < n - 1 ? right[i - c * R] : 1);
                a[i][j] = f(i ? a[i - 1][j] : 1, r, i, me * B + j);
            }
            first[i] = a[i][0];
        }
        if (me > 0) {
#pragma xmp post (p[me - 1], 100 + c)
        }
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < B; j++)
            CHECK(a[i][j] == g[i][me * B + j]);
    xmp_sync_all(NULL);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 0) printf("PASS\n");
    return 0;
}
