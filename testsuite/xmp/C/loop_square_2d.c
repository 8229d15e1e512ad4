/* Square loop spelling: loop (i, j) on t[i][j] over a
 * template distributed [cyclic][block] onto p[*][2] (np = 2 or 4).
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 14
#define M 9
#pragma xmp nodes p[*][2]
#pragma xmp template t[N][M]
#pragma xmp distribute t[cyclic][block] onto p
long a[N][M];
#pragma xmp align a[i][j] with t[i][j]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j;
    long s = 0, c = 0, want = 0;
#pragma xmp loop (i, j) on t[i][j]
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            a[i][j] = (long)(i + 1) * (j + 2);
#pragma xmp loop (i, j) on t[i][j] reduction(+:s, c)
    for (i = 1; i < N; i++)
        for (j = 0; j < M - 1; j++) {
            s += a[i][j];
            c++;
        }
    for (i = 1; i < N; i++)
        for (j = 0; j < M - 1; j++)
            want += (long)(i + 1) * (j + 2);
    CHECK(s == want && c == (N - 1) * (M - 1));
    if (nerr) exit(1);
#pragma xmp task on p[0][0]
    printf("PASS\n");
    return 0;
}
