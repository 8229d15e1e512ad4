/* loop: the nest holds loops the directive does not work-share (Omni's gmove_bca and
 * intrinsic_*_FJ tests): every node runs them whole, only the loops over the named
 * template indices are work-shared, wherever they sit in the nest.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 12
#define K 4
#pragma xmp nodes p[*]
#pragma xmp template t[N]
#pragma xmp distribute t[block] onto p
int a[K][N];
#pragma xmp align a[*][i] with t[i]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int j, k, me = xmp_node_num();
    long cnt = 0, sum = 0, w = 0;
#pragma xmp loop on t[j]
    for (k = 0; k < K; k++)
        for (j = 0; j < N; j++)
            a[k][j] = 100 * k + j;
#pragma xmp loop on t[j] reduction(+:cnt, sum)
    for (int kk = 0; kk < K; kk++) {
        for (j = 0; j < N; j++) {
            cnt++;
            sum += a[kk][j];
            CHECK(a[kk][j] == 100 * kk + j);
        }
    }
    for (k = 0; k < K; k++)
        for (j = 0; j < N; j++)
            w += 100 * k + j;
    CHECK(cnt == K * N);
    CHECK(sum == w);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
