/* Both align forms side by side: align x[i] with t(i) and align [i] with t(i) ::
 * y, z; arrays of different element types on one template.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 37
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(cyclic(2)) onto p
char x[N];
float y[N];
long long z[N];
#pragma xmp align x[i] with t(i)
#pragma xmp align [k] with t(k) :: y, z
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num();
    long long s = 0;
    double fs = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) {
        x[i] = (char)(i % 100);
        y[i] = 0.25f * i;
        z[i] = 1000000000LL * i;
    }
#pragma xmp loop on t(i) reduction(+:s, fs)
    for (i = 0; i < N; i++) {
        s += x[i] + z[i];
        fs += y[i];
    }
    CHECK(s == (long long)N * (N - 1) / 2 * 1000000001LL);
    CHECK(fs == 0.25 * N * (N - 1) / 2);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
