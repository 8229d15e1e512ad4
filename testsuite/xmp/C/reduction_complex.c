/* `double _Complex` / `float _Complex` declarations (tree-sitter-c does not know the
 * keyword: these declarations were kept unparsed and their arrays not distributed):
 * a distributed complex array, a loop and reductions of complex scalars.
 * xmpc-test: np=1,2,4
 */
#include <complex.h>
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 20
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
double _Complex z[N];
#pragma xmp align z[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    double _Complex s = 0;
    _Complex float f = 0;
#pragma xmp loop on t(i)
    for (int i = 0; i < N; i++)
        z[i] = i + 2.0 * i * I;
#pragma xmp loop on t(i) reduction(+:s, f)
    for (int i = 0; i < N; i++) {
        s += z[i];
        f += (float _Complex)z[i];
    }
    const double w = N * (N - 1) / 2.0;
    CHECK(creal(s) == w && cimag(s) == 2 * w);
    CHECK(crealf(f) == (float)w && cimagf(f) == (float)(2 * w));
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
