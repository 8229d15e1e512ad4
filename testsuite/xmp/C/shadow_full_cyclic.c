/* shadow a[*][*] on cyclic and cyclic(2) dimensions (Omni's shadow-reflect/full2):
 * after reflect every node holds the whole array, read by global index.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 6
#define M 10
#pragma xmp nodes p[*][2]
#pragma xmp template t[N][M]
#pragma xmp distribute t[cyclic][cyclic(2)] onto p
int a[N][M];
#pragma xmp align a[i][j] with t[i][j]
#pragma xmp shadow a[*][*]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
#pragma xmp loop on t[i][j]
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            a[i][j] = i * 100 + j;
#pragma xmp reflect (a)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            CHECK(a[i][j] == i * 100 + j);
#pragma xmp loop on t[i][j]
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            a[i][j] = -(i * 100 + j);
#pragma xmp reflect (a)
    long s = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            s += a[i][j];
    CHECK(s == -(100L * M * N * (N - 1) / 2 + (long)N * M * (M - 1) / 2));
    if (nerr) exit(1);
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
