/* Square align spelling: align a[i][j] with t[i][j] and b[i] with t[i][*]
 * (replicated over the template's second square dimension), template t[N][M]
 * distributed [block][block] over p[2][*].
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 10
#define M 8
#pragma xmp nodes p[2][*]
#pragma xmp template t[N][M]
#pragma xmp distribute t[block][block] onto p
int a[N][M], b[N];
#pragma xmp align a[i][j] with t[i][j]
#pragma xmp align b[i] with t[i][*]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j;
    long s = 0;
#pragma xmp loop (i) on t[i][*]
    for (i = 0; i < N; i++)
        b[i] = i;
#pragma xmp loop (i, j) on t[i][j]
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            a[i][j] = b[i] * M + j;
#pragma xmp loop (i, j) on t[i][j] reduction(+:s)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            s += a[i][j];
    CHECK(s == (long)N * M * (N * M - 1) / 2);
    if (nerr) exit(1);
#pragma xmp task on p[0][0]
    printf("PASS\n");
    return 0;
}
