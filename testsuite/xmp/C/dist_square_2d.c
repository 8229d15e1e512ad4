/* Square spelling of 2-D distributions: distribute t[block][cyclic] onto p[2][2]
 * (= round t(cyclic, block) onto p(2,2)); the square first dimension is blocked
 * over the square first node dimension.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 12
#pragma xmp nodes p[2][2]
#pragma xmp template t[N][N]
#pragma xmp distribute t[block][cyclic] onto p
int a[N][N];
#pragma xmp align a[i][j] with t[i][j]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j, pi = -1, pj = -1, cnt = 0;
    long s = 0;
#pragma xmp task on p[0][0]
    { pi = 0; pj = 0; }
#pragma xmp task on p[0][1]
    { pi = 0; pj = 1; }
#pragma xmp task on p[1][0]
    { pi = 1; pj = 0; }
#pragma xmp task on p[1][1]
    { pi = 1; pj = 1; }
#pragma xmp loop (i, j) on t[i][j] reduction(+:cnt)
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            CHECK(i / (N / 2) == pi && j % 2 == pj);
            a[i][j] = i - j;
            cnt++;
        }
#pragma xmp loop (i, j) on t[i][j] reduction(+:s)
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            s += a[i][j] * a[i][j];
    {
        long want = 0;
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                want += (long)(i - j) * (i - j);
        CHECK(s == want);
    }
    CHECK(cnt == N * N);
    if (nerr) exit(1);
#pragma xmp task on p[0][0]
    printf("PASS\n");
    return 0;
}
