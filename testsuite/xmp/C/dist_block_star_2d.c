/* distribute t(*, block) onto a 1-D node set: block rows of a C array
 * a[i][j] aligned with t(j, i); the * dimension is not distributed.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 32
#define M 10
#pragma xmp nodes p(*)
#pragma xmp template t(0:M-1, 0:N-1)
#pragma xmp distribute t(*, block) onto p
int a[N][M];
#pragma xmp align a[i][j] with t(j, i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j, P = xmp_num_nodes(), me = xmp_node_num(), cnt = 0;
    long s = 0;
#pragma xmp loop (j, i) on t(j, i) reduction(+:cnt)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++) {
            CHECK(i / ((N + P - 1) / P) + 1 == me);
            a[i][j] = i * M + j;
            cnt++;
        }
#pragma xmp loop (j, i) on t(j, i) reduction(+:s)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            s += a[i][j];
    CHECK(cnt == N * M);
    CHECK(s == (long)N * M * (N * M - 1) / 2);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
