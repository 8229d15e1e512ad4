/* reduction of an array parameter: C passes a pointer, so the element count comes from
 * the declared extents (it was sizeof(a)/sizeof(a[0]) on a pointer: 2 elements).
 * xmpc-test: np=1,3
 */
#include <stdio.h>
#include <xmp.h>
#define N 10
#define M 3
#pragma xmp nodes p[*]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static void sum(int a[N], int np)
{
    int i;
#pragma xmp reduction(+:a)
    for (i = 0; i < N; i++)
        CHECK(a[i] == np * (np + 1) / 2 * 100 + np * i);
}
static void maxes(double b[M][N], int np)
{
    int i, j;
#pragma xmp reduction(MAX:b)
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++)
            CHECK(b[i][j] == np * 1000.0 + i * N + j);
}
int main(void)
{
    int a[N], i, j, me = xmp_node_num(), np = xmp_num_nodes();
    double b[M][N];
    for (i = 0; i < N; i++)
        a[i] = me * 100 + i;
    sum(a, np);
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++)
            b[i][j] = me * 1000.0 + i * N + j;
    maxes(b, np);
#pragma xmp reduction(+:nerr)
    if (me == 1 && nerr == 0)
        printf("PASS\n");
    return nerr != 0;
}
