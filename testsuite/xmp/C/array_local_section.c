/* XMP C array assignments on local (not distributed) arrays outside any directive:
 * `y[i][:] = v;`, `y[s:len][s:len] = v;`, strided `z[s:len:step]`, and sections on
 * the right side (Omni's array/361_array.c; gcc used to get the sections as written).
 * xmpc-test: np=1,2
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 10
#define M 6
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
int x[N];
#pragma xmp align x[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int y[N][M], z[N], w[N];
    for (int i = 0; i < N; i++) {
        y[i][:] = i;
    }
    y[2:3][1:2] = -1;
    z[:] = 0;
    z[1:4:2] = 5;
    w[0:N] = z[0:N] + 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            CHECK(y[i][j] == (i >= 2 && i < 5 && j >= 1 && j < 3 ? -1 : i));
    for (int i = 0; i < N; i++) {
        int want = (i == 1 || i == 3 || i == 5 || i == 7) ? 5 : 0;
        CHECK(z[i] == want);
        CHECK(w[i] == want + 1);
    }
    /* a directive's own section statement is unchanged */
#pragma xmp array on t(0:N-1)
    x[0:N] = 3;
#pragma xmp loop on t(i)
    for (int i = 0; i < N; i++)
        CHECK(x[i] == 3);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
