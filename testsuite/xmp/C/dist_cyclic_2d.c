/* distribute t(cyclic, block) onto p(2,2) and t2(cyclic(2), cyclic) onto p:
 * mixed formats in two dimensions.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 18
#pragma xmp nodes p(2,2)
#pragma xmp template t(0:N-1, 0:N-1)
#pragma xmp template t2(0:N-1, 0:N-1)
#pragma xmp distribute t(cyclic, block) onto p
#pragma xmp distribute t2(cyclic(2), cyclic) onto p
int a[N][N], b[N][N];
#pragma xmp align a[j][i] with t(i, j)
#pragma xmp align b[j][i] with t2(i, j)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j, me = xmp_node_num() - 1, c1 = 0, c2 = 0;
    long s1 = 0, s2 = 0;
#pragma xmp loop (i, j) on t(i, j) reduction(+:c1)
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++) {
            CHECK(i % 2 + 2 * (j / 9) == me);
            a[j][i] = i + N * j;
            c1++;
        }
#pragma xmp loop (i, j) on t2(i, j) reduction(+:c2)
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++) {
            CHECK((i / 2) % 2 + 2 * (j % 2) == me);
            b[j][i] = i + N * j;
            c2++;
        }
#pragma xmp loop (i, j) on t(i, j) reduction(+:s1)
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++)
            s1 += a[j][i];
#pragma xmp loop (i, j) on t2(i, j) reduction(+:s2)
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++)
            s2 += b[j][i];
    CHECK(c1 == N * N && c2 == N * N);
    CHECK(s1 == (long)N * N * (N * N - 1) / 2 && s2 == s1);
    if (nerr) exit(1);
    if (me == 0) printf("PASS\n");
    return 0;
}
