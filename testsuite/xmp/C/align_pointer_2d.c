/* Multi-dimensional pointer arrays `T (*a)[M]` aligned with a 2-D template and
 * allocated by xmp_malloc (refused before: "only 1-dimensional pointer arrays"):
 * file scope with a shadow and a reflect, and a local one whose template is fixed by
 * a template_fix after the align (it was created twice).
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 12
#define M 8
#pragma xmp nodes p(*)
#pragma xmp template t(0:M-1, 0:N-1)
#pragma xmp distribute t(*, block) onto p
#pragma xmp template u(:, :)
#pragma xmp distribute u(*, block) onto p
float (*a)[M];
#pragma xmp align a[i][j] with t(j, i)
#pragma xmp shadow a[1][0]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)

static void local_deferred(int n)
{
    int (*b)[M];
#pragma xmp align b[i][j] with u(j, i)
#pragma xmp template_fix u(0:M-1, 0:n-1)
    b = (int (*)[M])xmp_malloc(xmp_desc_of(b), n, M);
#pragma xmp loop (i, j) on u(j, i)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < M; j++)
            b[i][j] = 100 * i + j;
    long s = 0;
#pragma xmp loop (i, j) on u(j, i) reduction(+:s)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < M; j++)
            s += b[i][j];
    CHECK(s == 100L * M * n * (n - 1) / 2 + (long)n * M * (M - 1) / 2);
}

int main(void)
{
    a = (float (*)[M])xmp_malloc(xmp_desc_of(a), N, M);
#pragma xmp array on t(:, :)
    a[0:N][0:M] = 1;
#pragma xmp loop (i, j) on t(j, i)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            a[i][j] += 10 * i + j;
#pragma xmp reflect (a) width(/periodic/1, 0)
#pragma xmp loop (i, j) on t(j, i)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            CHECK(a[i][j] == 1 + 10 * i + j);
            CHECK(a[i - 1][j] == 1 + 10 * ((i - 1 + N) % N) + j);
            CHECK(a[i + 1][j] == 1 + 10 * ((i + 1) % N) + j);
        }
    local_deferred(2 * N);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
