/* 2-D gmove: block rows to block columns (b[:][:] = a[:][:]) and a
 * sub-rectangle b[2:5][1:6] = a[10:5][3:6]; the column layout is strided.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 16
#define M 12
#pragma xmp nodes p(*)
#pragma xmp template tr(0:M-1, 0:N-1)
#pragma xmp template tcol(0:M-1, 0:N-1)
#pragma xmp distribute tr(*, block) onto p
#pragma xmp distribute tcol(block, *) onto p
int a[N][M], b[N][M];
#pragma xmp align a[i][j] with tr(j, i)
#pragma xmp align b[i][j] with tcol(j, i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j, me = xmp_node_num();
#pragma xmp loop (j, i) on tr(j, i)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            a[i][j] = 100 * i + j;
#pragma xmp gmove
    b[:][:] = a[:][:];
#pragma xmp loop (j, i) on tcol(j, i)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++) {
            CHECK(b[i][j] == 100 * i + j);
            b[i][j] = -1;
        }
#pragma xmp gmove
    b[2:5][1:6] = a[10:5][3:6];
#pragma xmp loop (j, i) on tcol(j, i)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++) {
            int in = i >= 2 && i < 7 && j >= 1 && j < 7;
            CHECK(b[i][j] == (in ? 100 * (i + 8) + (j + 2) : -1));
        }
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
