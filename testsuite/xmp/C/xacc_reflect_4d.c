/* XcalableACC on a 4-D array: two distributed dimensions over p(2, *), shadows
 * of width 1 and 2, reflect_init (v) width(0, 2, 0, /periodic/1) acc +
 * reflect_do (v) acc in a loop, and a full reflect (v) acc.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <xmp.h>
#define N0 3
#define N1 10
#define N2 4
#define N3 8
#pragma xmp nodes p(2, *)
#pragma xmp template t(0:N3-1, 0:N1-1)
#pragma xmp distribute t(block, block) onto p
int v[N0][N1][N2][N3];
#pragma xmp align v[*][j][*][i] with t(i, j)
#pragma xmp shadow v[0][2][0][1]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d node %d: %s\n", __LINE__, xmp_node_num(), #c); } } while (0)
#pragma acc routine seq
static int f(int it, int a, int j, int b, int i) { return it * 1000000 + a * 100000 + j * 1000 + b * 100 + i; }
int main(void)
{
    int a, b, i, j, it;
#pragma acc data copy(v)
    {
#pragma xmp reflect_init (v) width(0, 2, 0, /periodic/1) acc
        for (it = 0; it < 2; it++) {
#pragma xmp loop (i, j) on t(i, j)
#pragma acc parallel loop collapse(2)
            for (j = 0; j < N1; j++)
                for (i = 0; i < N3; i++)
                    for (a = 0; a < N0; a++)
                        for (b = 0; b < N2; b++)
                            v[a][j][b][i] = f(it, a, j, b, i);
#pragma xmp reflect_do (v) acc
#pragma xmp loop (i, j) on t(i, j)
            for (j = 0; j < N1; j++)
                for (i = 0; i < N3; i++)
                    for (a = 0; a < N0; a++)
                        for (b = 0; b < N2; b++) {
                            if (j >= 2)
                                CHECK(v[a][j - 2][b][i] == f(it, a, j - 2, b, i));
                            if (j + 2 < N1)
                                CHECK(v[a][j + 2][b][i] == f(it, a, j + 2, b, i));
                            CHECK(v[a][j][b][i - 1] == f(it, a, j, b, (i - 1 + N3) % N3));
                            CHECK(v[a][j][b][i + 1] == f(it, a, j, b, (i + 1) % N3));
                        }
        }
#pragma xmp loop (i, j) on t(i, j)
        for (j = 0; j < N1; j++)
            for (i = 0; i < N3; i++)
                v[1][j][2][i] = -j - i;
#pragma xmp reflect (v) acc
#pragma xmp loop (i, j) on t(i, j)
        for (j = 1; j < N1 - 1; j++)
            for (i = 1; i < N3 - 1; i++)
                CHECK(v[1][j - 1][2][i + 1] == -(j - 1) - (i + 1));
    }
#pragma xmp reduction (+:nerr)
    if (xmp_node_num() == 1)
        printf(nerr == 0 ? "PASS\n" : "ERROR %d\n", nerr);
    return nerr != 0;
}
