/* Square template spellings: t[N] (0..N-1) and t2[N][M] (round t2(0:M-1,0:N-1)),
 * with square loops, a partial loop range and a [block][*] distribution.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 40
#define M 12
#pragma xmp nodes p[*]
#pragma xmp template t[N]
#pragma xmp template t2[N][M]
#pragma xmp distribute t[block] onto p
#pragma xmp distribute t2[block][*] onto p
int a[N], b[N][M];
#pragma xmp align a[i] with t[i]
#pragma xmp align b[i][j] with t2[i][j]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j;
    long s1 = 0, s2 = 0, c1 = 0;
#pragma xmp loop on t[i]
    for (i = 0; i < N; i++)
        a[i] = i;
#pragma xmp loop (i, j) on t2[i][j]
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            b[i][j] = i * M + j;
#pragma xmp loop on t[i] reduction(+:s1, c1)
    for (i = 2; i < N - 2; i++) {
        s1 += a[i];
        c1++;
    }
#pragma xmp loop (i, j) on t2[i][j] reduction(+:s2)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            s2 += b[i][j];
    CHECK(c1 == N - 4);
    CHECK(s1 == (long)(N - 1) * N / 2 - 0 - 1 - (N - 2) - (N - 1));
    CHECK(s2 == (long)N * M * (N * M - 1) / 2);
    if (nerr) exit(1);
#pragma xmp task on p[0]
    printf("PASS\n");
    return 0;
}
