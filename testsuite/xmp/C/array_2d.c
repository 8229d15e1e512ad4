/* array on t[:][:] (square spelling) over a 2-D template: a[:][:] = b[:][:] + c
 * with a cyclic dimension.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 12
#define M 10
#pragma xmp nodes p[2][*]
#pragma xmp template t[N][M]
#pragma xmp distribute t[block][cyclic] onto p
int a[N][M], b[N][M];
#pragma xmp align a[i][j] with t[i][j]
#pragma xmp align b[i][j] with t[i][j]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j;
#pragma xmp loop (i, j) on t[i][j]
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++) { a[i][j] = 0; b[i][j] = i * M + j; }
#pragma xmp array on t[:][:]
    a[:][:] = b[:][:] + 7;
#pragma xmp loop (i, j) on t[i][j]
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            CHECK(a[i][j] == i * M + j + 7);
    if (nerr) exit(1);
#pragma xmp task on p[0][0]
    printf("PASS\n");
    return 0;
}
