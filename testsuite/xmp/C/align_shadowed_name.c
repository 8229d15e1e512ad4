/* A local aligned array whose name a nested block reuses for a scalar later (Omni's
 * align/scope.c): the align means the array declared before it (xmpc took the last
 * symbol of that name in the function and refused the align with a rank mismatch).
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 40
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)

static long fill(void)
{
    int c[N];
#pragma xmp align c[i] with t(i)
    long s = 0;
#pragma xmp loop on t(i)
    for (int i = 0; i < N; i++)
        c[i] = 2 * i;
#pragma xmp loop on t(i) reduction(+:s)
    for (int i = 0; i < N; i++)
        s += c[i];
    {
        int c = 4; /* a scalar of the same name in a nested block */
        c *= 2;
        s += c;
    }
    return s;
}

int main(void)
{
    CHECK(fill() == (long)N * (N - 1) + 8);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
