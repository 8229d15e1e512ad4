/* Local view: coindexed sections, checked element by element: strided puts and gets
 * in 1-3 dimensions, a scalar broadcast into a section, partial subscripts (a whole
 * row), a struct coarray and a member, a coindexed value in expressions, a put of an
 * expression with a conversion, and the local image (a copy that overlaps).
 * xmpc-test: np=2,3
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xmp.h>
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int a[20]:[*];
double b[4][6]:[*];
long c[3][4][5]:[*];
struct pt { int x; double y; int v[3]; };
struct pt s:[*];
static void reset(int me)
{
    for (int i = 0; i < 20; i++) a[i] = 1000 * me + i;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++) b[i][j] = 100 * me + 10 * i + j;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 5; k++) c[i][j][k] = 10000 * me + 100 * i + 10 * j + k;
    s.x = me; s.y = me + 0.5;
    for (int i = 0; i < 3; i++) s.v[i] = 10 * me + i;
    xmp_sync_all(NULL);
}
int main(void)
{
    int me = xmpc_this_image(), n = xmp_num_images();
    int to = (me + 1) % n, from = (me + n - 1) % n;
    int loc[20];
    /* 1-D strided put: a[1:5:3] on `to` = my a[0:5] */
    reset(me);
    for (int i = 0; i < 20; i++) loc[i] = 1000 * me + i; /* (not a copy of a: `from` is writing it) */
    a[1:5:3]:[to] = loc[0:5];
    xmp_sync_all(NULL);
    for (int i = 0; i < 20; i++) {
        int want = (i % 3 == 1 && i < 14) ? 1000 * from + (i - 1) / 3 : 1000 * me + i;
        CHECK(a[i] == want);
    }
    /* 1-D strided get with default start and length: loc[0:10] = a[::2]:[to] is a[0:10:2] */
    reset(me);
    loc[0:10] = a[0:10:2]:[to];
    for (int i = 0; i < 10; i++) CHECK(loc[i] == 1000 * to + 2 * i);
    /* whole dimension `[:]` on both sides */
    double row[6];
    row[:] = b[2][:]:[to];
    for (int j = 0; j < 6; j++) CHECK(row[j] == 100 * to + 20 + j);
    /* 2-D column put (strided) and a scalar broadcast into a 2-D section */
    reset(me);
    double bl[4][6]; /* the values of my b, not a copy (`from` is writing b) */
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++) bl[i][j] = 100 * me + 10 * i + j;
    b[0:4][5]:[to] = bl[0:4][0];
    xmp_sync_all(NULL);
    for (int i = 0; i < 4; i++) CHECK(b[i][5] == 100 * from + 10 * i);
    xmp_sync_all(NULL);
    b[1:2][1:3:2]:[to] = -7.0;
    xmp_sync_all(NULL);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++) {
            double want = (i >= 1 && i <= 2 && (j == 1 || j == 3 || j == 5)) ? -7.0 : (j == 5 ? 100 * from + 10 * i : 100 * me + 10 * i + j);
            CHECK(b[i][j] == want);
        }
    /* 3-D: a strided 2x2x3 block get and a whole row (partial subscripts) */
    reset(me);
    long blk[2][2][3];
    blk[0:2][0:2][0:3] = c[0:2:2][1:2:2][0:3:2]:[to];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 3; k++) CHECK(blk[i][j][k] == 10000 * to + 100 * (2 * i) + 10 * (1 + 2 * j) + 2 * k);
    long whole[5];
    whole[0:5] = c[2][3][0:5]:[to];
    for (int k = 0; k < 5; k++) CHECK(whole[k] == 10000 * to + 230 + k);
    /* struct coarray: whole struct and a member array */
    reset(me);
    struct pt q = s:[to];
    CHECK(q.x == to && q.y == to + 0.5 && q.v[2] == 10 * to + 2);
    int vv[3];
    vv[0:3] = s.v[0:3]:[to];
    CHECK(vv[0] == 10 * to && vv[1] == 10 * to + 1);
    /* coindexed values in expressions, a put of a converted expression */
    CHECK(a[3]:[to] + a[4]:[from] * 2 == 1000 * to + 3 + 2 * (1000 * from + 4));
    xmp_sync_all(NULL);
    b[3][0]:[to] = me + 1; /* int -> double */
    xmp_sync_all(NULL);
    CHECK(b[3][0] == from + 1);
    /* the local image: an overlapping shift through a coindexed put */
    reset(me);
    a[1:10]:[me] = a[0:10];
    for (int i = 0; i < 20; i++) CHECK(a[i] == 1000 * me + (i >= 1 && i <= 10 ? i - 1 : i));
    xmp_sync_all(NULL);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 0) printf("PASS\n");
    return 0;
}
