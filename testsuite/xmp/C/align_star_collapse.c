/* align a[i][*] with t(i): the second array dimension is collapsed (every node
 * holds whole rows).
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 24
#define M 7
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
double a[N][M];
#pragma xmp align a[i][*] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j, me = xmp_node_num();
    double s = 0, want = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            a[i][j] = i * M + j;
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            s += a[i][j] * (j + 1);
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            want += (double)(i * M + j) * (j + 1);
    CHECK(s == want);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
