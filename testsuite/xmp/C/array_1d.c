/* array on t(...): an array assignment between aligned arrays runs on the owners
 * only (whole arrays and a section).
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 80
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
double a[N], b[N];
#pragma xmp align [i] with t(i) :: a, b
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num();
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) { a[i] = 0; b[i] = i; }
#pragma xmp array on t(0:N-1)
    a[0:N] = 2 * b[0:N] + 1;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        CHECK(a[i] == 2 * i + 1);
#pragma xmp array on t(10:29)
    a[10:20] = b[10:20] * b[10:20];
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        CHECK(a[i] == (i >= 10 && i < 30 ? (double)i * i : 2 * i + 1));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
