/* loop reduction(max:mx/imx/) and reduction(min:mn/imn/): max and min with a
 * location variable (maxloc/minloc); unique extremes.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 100
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(cyclic) onto p
double a[N];
#pragma xmp align a[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static double f(int i) { return (double)((i * 37 + 11) % 101) - 50.5; }
int main(void)
{
    int i, me = xmp_node_num(), imx = -1, imn = -1, wmx = -1, wmn = -1;
    double mx = -1e30, mn = 1e30, vmx = -1e30, vmn = 1e30;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = f(i);
#pragma xmp loop on t(i) reduction(max:mx/imx/) reduction(min:mn/imn/)
    for (i = 0; i < N; i++) {
        if (a[i] > mx) { mx = a[i]; imx = i; }
        if (a[i] < mn) { mn = a[i]; imn = i; }
    }
    for (i = 0; i < N; i++) {
        if (f(i) > vmx) { vmx = f(i); wmx = i; }
        if (f(i) < vmn) { vmn = f(i); wmn = i; }
    }
    CHECK(mx == vmx && imx == wmx);
    CHECK(mn == vmn && imn == wmn);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
