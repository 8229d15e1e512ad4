/* The "spec :: name-list" forms: template (0:N-1) :: ta, tb; distribute (...)
 * onto p :: ta, tb; align [i] with ta(i) :: x, y; shadow [1] :: x, y.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 64
#pragma xmp nodes p(*)
#pragma xmp template (0:N-1) :: ta, tb
#pragma xmp distribute (cyclic) onto p :: tb
#pragma xmp distribute (block) onto p :: ta
double x[N], y[N], z[N];
#pragma xmp align [i] with ta(i) :: x, y
#pragma xmp align z[i] with tb(i)
#pragma xmp shadow [1] :: x, y
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, np = xmp_num_nodes(), me = xmp_node_num();
    double s = 0, sz = 0;
#pragma xmp loop on ta(i)
    for (i = 0; i < N; i++) { x[i] = i; y[i] = 2 * i; }
#pragma xmp loop on tb(i)
    for (i = 0; i < N; i++) {
        z[i] = 1;
        CHECK(i % np + 1 == me);
    }
#pragma xmp reflect (x, y)
#pragma xmp loop on ta(i) reduction(+:s)
    for (i = 1; i < N - 1; i++)
        s += x[i - 1] + y[i + 1];
#pragma xmp loop on tb(i) reduction(+:sz)
    for (i = 0; i < N; i++)
        sz += z[i];
    /* sum_{i=1}^{N-2} (i-1) + 2(i+1) */
    {
        double want = 0;
        for (i = 1; i < N - 1; i++) want += (i - 1) + 2 * (i + 1);
        CHECK(s == want);
    }
    CHECK(sz == N);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
