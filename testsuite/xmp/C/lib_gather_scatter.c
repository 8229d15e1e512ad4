/* xmp_gather / xmp_scatter: x[i] = a[idx[i]] and x[idx[i]] = a[i] with a permutation
 * and with repeated indices, 1-D (block source, cyclic result) and 2-D (block x block
 * against cyclic x block, two index arrays), compared with the same loops run
 * sequentially on every node.
 * xmpc-test: np=2,4,6
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 37
#define R 6
#define C 5
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp template tc(0:N-1)
#pragma xmp distribute t(block) onto p
#pragma xmp distribute tc(cyclic) onto p
int a[N], x[N], idx[N];
#pragma xmp align a[i] with t(i)
#pragma xmp align x[i] with tc(i)
#pragma xmp align idx[i] with tc(i)
#pragma xmp nodes q(2,*)
#pragma xmp template s(0:C-1, 0:R-1)
#pragma xmp template s2(0:C-1, 0:R-1)
#pragma xmp distribute s(block, block) onto q
#pragma xmp distribute s2(cyclic, block) onto q
double b[R][C], y[R][C];
int i0[R][C], i1[R][C];
#pragma xmp align b[i][j] with s(j, i)
#pragma xmp align y[i][j] with s2(j, i)
#pragma xmp align i0[i][j] with s2(j, i)
#pragma xmp align i1[i][j] with s2(j, i)
static int perm(int i) { return (i * 7 + 3) % N; } /* 7 is prime to 37 */
int main(void)
{
    int nerr = 0, i, j;
    int ra[N], rx[N];
    double rb[R][C], ry[R][C];
    for (i = 0; i < N; i++) ra[i] = 1000 + i * i;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) a[i] = 1000 + i * i;
    /* gather with a permutation */
#pragma xmp loop on tc(i)
    for (i = 0; i < N; i++) { idx[i] = perm(i); x[i] = -1; }
    xmp_gather(xmp_desc_of(x), xmp_desc_of(a), xmp_desc_of(idx));
#pragma xmp loop on tc(i) reduction(+:nerr)
    for (i = 0; i < N; i++) if (x[i] != ra[perm(i)]) nerr++;
    /* gather with repeated indices */
#pragma xmp loop on tc(i)
    for (i = 0; i < N; i++) idx[i] = (i / 3) % N;
    xmp_gather(xmp_desc_of(x), xmp_desc_of(a), xmp_desc_of(idx));
#pragma xmp loop on tc(i) reduction(+:nerr)
    for (i = 0; i < N; i++) if (x[i] != ra[i / 3]) nerr++;
    /* scatter: x[perm(i)] = a[i] (a is block, idx and x cyclic) */
#pragma xmp loop on tc(i)
    for (i = 0; i < N; i++) { idx[i] = perm(i); x[i] = -1; }
    xmp_scatter(xmp_desc_of(x), xmp_desc_of(a), xmp_desc_of(idx));
    for (i = 0; i < N; i++) rx[perm(i)] = ra[i];
#pragma xmp loop on tc(i) reduction(+:nerr)
    for (i = 0; i < N; i++) if (x[i] != rx[i]) nerr++;
    /* 2-D gather: y[i][j] = b[i0[i][j]][i1[i][j]] with a transposing index */
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++) rb[i][j] = i * 10.0 + j + 0.5;
#pragma xmp loop on s(j, i)
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++) b[i][j] = i * 10.0 + j + 0.5;
#pragma xmp loop on s2(j, i)
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++) { i0[i][j] = (i * C + j) % R; i1[i][j] = (i * C + j) / R; y[i][j] = 0; }
    xmp_gather(xmp_desc_of(y), xmp_desc_of(b), xmp_desc_of(i0), xmp_desc_of(i1));
#pragma xmp loop on s2(j, i) reduction(+:nerr)
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++) if (y[i][j] != rb[(i * C + j) % R][(i * C + j) / R]) nerr++;
    /* 2-D scatter back: b2[i0][i1] = y, which must give rb again */
#pragma xmp loop on s(j, i)
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++) b[i][j] = -1;
    xmp_scatter(xmp_desc_of(b), xmp_desc_of(y), xmp_desc_of(i0), xmp_desc_of(i1));
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++) ry[i][j] = rb[i][j];
#pragma xmp loop on s(j, i) reduction(+:nerr)
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++) if (b[i][j] != ry[i][j]) nerr++;
    if (nerr) {
        if (xmp_node_num() == 1) printf("ERROR: %d wrong elements\n", nerr);
        exit(1);
    }
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
