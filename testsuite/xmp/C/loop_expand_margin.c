/* loop options expand, margin and peel_and_wait (XMP 1.4 4.2.2, as Omni runs them):
 * - expand(w) widens each node's block by w (negative: shrinks it), clipped to the
 *   loop bounds unless /unbound/;
 * - margin(w) runs the widened box xor the owned box: the shadow ring (corners
 *   included) for w > 0, the inner ring for w < 0;
 * - peel_and_wait(tag, w) runs the owned iterations after async(tag) completed.
 * Each node counts and sums the indices it ran and checks them against its own block.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 16
#define M 6
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
#pragma xmp template t2(0:N-1, 0:M-1)
#pragma xmp distribute t2(block, *) onto p
int a[N];
#pragma xmp align a[i] with t(i)
#pragma xmp shadow a[2]
int b[N][M];
#pragma xmp align b[i][*] with t2(i, *)
#pragma xmp shadow b[1][0]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR node %d line %d: %s\n", me, __LINE__, #c); } } while (0)
static long lo = N, hi = -1;

/* count and index sum of the integers of [l, h] that are not in [xl, xh] */
static void ring(long l, long h, long xl, long xh, long *cnt, long *sum)
{
    *cnt = 0; *sum = 0;
    for (long i = l; i <= h; i++)
        if (i < xl || i > xh) { (*cnt)++; *sum += i; }
}

int main(void)
{
    int i, j, me = xmp_node_num();
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) {
        if (i < lo) lo = i;
        if (i > hi) hi = i;
        a[i] = 10 * i;
    }
    long cnt, sum, wc, ws;

    /* expand, clipped and unbound */
    cnt = sum = 0;
#pragma xmp loop on t(i) expand(1)
    for (i = 0; i < N; i++) { cnt++; sum += i; }
    { long l = lo - 1 < 0 ? 0 : lo - 1, h = hi + 1 > N - 1 ? N - 1 : hi + 1; ring(l, h, 1, 0, &wc, &ws); }
    CHECK(cnt == wc && sum == ws);
    cnt = sum = 0;
#pragma xmp loop on t(i) expand(/unbound/2:1)
    for (i = 0; i < N; i++) { cnt++; sum += i; a[i] = -1; }
    ring(lo - 2, hi + 1, 1, 0, &wc, &ws);
    CHECK(cnt == wc && sum == ws);

    /* margin: outer ring (bounded and unbound), inner ring */
    cnt = sum = 0;
#pragma xmp loop on t(i) margin(1)
    for (i = 0; i < N; i++) { cnt++; sum += i; }
    { long l = lo - 1 < 0 ? 0 : lo - 1, h = hi + 1 > N - 1 ? N - 1 : hi + 1; ring(l, h, lo, hi, &wc, &ws); }
    CHECK(cnt == wc && sum == ws);
    cnt = sum = 0;
#pragma xmp loop on t(i) margin(/unbound/2)
    for (i = 0; i < N; i++) { cnt++; sum += i; }
    ring(lo - 2, hi + 2, lo, hi, &wc, &ws);
    CHECK(cnt == wc && sum == ws);
    cnt = sum = 0;
#pragma xmp loop on t(i) margin(-1)
    for (i = 0; i < N; i++) { cnt++; sum += i; }
    ring(lo, hi, lo + 1, hi - 1, &wc, &ws);
    CHECK(cnt == wc && sum == ws);

    /* 2-D margin on (block, *): the ring includes the corners */
    cnt = sum = 0;
#pragma xmp loop (i, j) on t2(i, j) margin(/unbound/1, /unbound/1)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++) { cnt++; sum += 100 * i + j; }
    wc = ws = 0;
    for (long x = lo - 1; x <= hi + 1; x++)
        for (long y = -1; y <= M; y++)
            if (x < lo || x > hi || y < 0 || y > M - 1) { wc++; ws += 100 * x + y; }
    CHECK(cnt == wc && sum == ws);

    /* peel_and_wait: the owned iterations, after the asynchronous reflect */
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) a[i] = i;
#pragma xmp reflect (a) width(/periodic/1) async(7)
    cnt = 0;
#pragma xmp loop on t(i) peel_and_wait(7, 1)
    for (i = 0; i < N; i++) { cnt++; a[i] = a[i] + 1000; }
    CHECK(cnt == hi - lo + 1);
    cnt = sum = 0;
#pragma xmp loop on t(i) expand(/unbound/1) reduction(+:sum)
    for (i = 0; i < N; i++) {
        int want = i < lo || i > hi ? (i + N) % N : i + 1000;
        if (a[i] != want) sum++;
    }
    CHECK(sum == 0);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
