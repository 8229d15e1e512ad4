/* align v[i] with t(*, i): the array is replicated along the template's first
 * (non-array) dimension, which is distributed over p(2,2)'s first node dimension;
 * a loop on t(j, i) uses it as a column factor.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 16
#pragma xmp nodes p(2,2)
#pragma xmp template t(0:N-1, 0:N-1)
#pragma xmp distribute t(block, block) onto p
double m[N][N], v[N];
#pragma xmp align m[i][j] with t(j, i)
#pragma xmp align v[i] with t(*, i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j, me = xmp_node_num();
    double s = 0, want = 0;
#pragma xmp loop (i) on t(*, i)
    for (i = 0; i < N; i++)
        v[i] = i + 1;
#pragma xmp loop (j, i) on t(j, i)
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            m[i][j] = v[i] * (j + 1);
#pragma xmp loop (j, i) on t(j, i) reduction(+:s)
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            s += m[i][j];
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            want += (i + 1.0) * (j + 1);
    CHECK(s == want);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
