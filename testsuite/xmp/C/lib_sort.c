/* xmp_sort_up / xmp_sort_down: int values with many duplicates (block source,
 * gblock result) and doubles (cyclic source, cyclic(3) result), compared element
 * by element with qsort of the same values on every node.
 * xmpc-test: np=1,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 101
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp template tc(0:N-1)
#pragma xmp template tc3(0:N-1)
#pragma xmp template tg(0:N-1)
#pragma xmp distribute t(block) onto p
#pragma xmp distribute tc(cyclic) onto p
#pragma xmp distribute tc3(cyclic(3)) onto p
int a[N];
double c[N], d[N];
#pragma xmp align a[i] with t(i)
#pragma xmp align c[i] with tc(i)
#pragma xmp align d[i] with tc3(i)
static int cmpi(const void *x, const void *y) { return *(const int *)x - *(const int *)y; }
static int cmpd(const void *x, const void *y) { double u = *(const double *)x, v = *(const double *)y; return (u > v) - (u < v); }
static int I(int i) { return (i * 37) % 23 - 11; }
static double D(int i) { return ((i * 7919) % 101) * 1.5 - 60.25; }
int main(void)
{
    int nerr = 0, i, P = xmp_num_nodes();
    int ri[N];
    double rd[N];
    /* an uneven gblock for b: node k gets 2k+1 elements, the last node the rest */
    int *m = malloc(P * sizeof(int)), s = 0;
    for (i = 0; i < P - 1; i++) { m[i] = 2 * i + 1; s += m[i]; }
    m[P - 1] = N - s;
#pragma xmp distribute tg(gblock(m)) onto p
    int b[N];
#pragma xmp align b[i] with tg(i)
    for (i = 0; i < N; i++) { ri[i] = I(i); rd[i] = D(i); }
    qsort(ri, N, sizeof(int), cmpi);
    qsort(rd, N, sizeof(double), cmpd);
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) a[i] = I(i);
#pragma xmp loop on tc(i)
    for (i = 0; i < N; i++) c[i] = D(i);
    xmp_sort_up(xmp_desc_of(a), xmp_desc_of(b));
#pragma xmp loop on tg(i) reduction(+:nerr)
    for (i = 0; i < N; i++) if (b[i] != ri[i]) nerr++;
    xmp_sort_down(xmp_desc_of(a), xmp_desc_of(b));
#pragma xmp loop on tg(i) reduction(+:nerr)
    for (i = 0; i < N; i++) if (b[i] != ri[N - 1 - i]) nerr++;
    xmp_sort_up(xmp_desc_of(c), xmp_desc_of(d));
#pragma xmp loop on tc3(i) reduction(+:nerr)
    for (i = 0; i < N; i++) if (d[i] != rd[i]) nerr++;
    xmp_sort_down(xmp_desc_of(c), xmp_desc_of(d));
#pragma xmp loop on tc3(i) reduction(+:nerr)
    for (i = 0; i < N; i++) if (d[i] != rd[N - 1 - i]) nerr++;
    /* the source is unchanged */
#pragma xmp loop on t(i) reduction(+:nerr)
    for (i = 0; i < N; i++) if (a[i] != I(i)) nerr++;
    if (nerr) {
        if (xmp_node_num() == 1) printf("ERROR: %d wrong elements\n", nerr);
        exit(1);
    }
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
