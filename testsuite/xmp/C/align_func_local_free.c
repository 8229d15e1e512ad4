/* A function with local distributed arrays (2-D, periodic reflect, gmove to
 * another distribution) called 3000 times, returning early on some calls: the
 * runtime's descriptors, reflect plans and their MPI windows are freed at every
 * return (without that, MPI runs out of windows after ~2000 calls). On more than
 * 2 nodes only 20 calls: each call creates and frees a shared-memory window,
 * ~100 ms when MPI oversubscribes the cores.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define NX 6
#define NY 16
static double step(int k)
{
#pragma xmp nodes p(*)
#pragma xmp template tc(0:NY-1)
#pragma xmp template tr(0:NX-1)
#pragma xmp distribute tc(block) onto p
#pragma xmp distribute tr(block) onto p
    int i, j;
    double a[NY][NX], b[NY][NX], t = 0, u = 0;
#pragma xmp align a[j][*] with tc(j)
#pragma xmp align b[*][i] with tr(i)
#pragma xmp shadow a[1][0]
#pragma xmp loop on tc(j)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            a[j][i] = k + i + 10 * j;
#pragma xmp reflect (a) width(/periodic/1, 0)
#pragma xmp loop on tc(j) reduction(+:t)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            t += a[j - 1][i] + 2 * a[j + 1][i];
    if (k % 5 == 0)
        return t;
#pragma xmp gmove
    b[:][:] = a[:][:];
#pragma xmp loop on tr(i) reduction(+:u)
    for (i = 0; i < NX; i++)
        for (j = 0; j < NY; j++)
            u += i * b[j][i];
    return t + u;
}
/* what step returns, computed serially */
static double expect(int k)
{
    double e = 0;
    for (int j = 0; j < NY; j++) {
        int jm = (j + NY - 1) % NY, jp = (j + 1) % NY;
        for (int i = 0; i < NX; i++) e += (k + i + 10 * jm) + 2 * (k + i + 10 * jp);
    }
    if (k % 5 != 0)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) e += i * (k + i + 10 * j);
    return e;
}
int main(void)
{
    int calls = xmp_all_num_nodes() <= 2 ? 3000 : 20;
    double s = 0, w = 0;
    for (int k = 1; k <= calls; k++) {
        s += step(k);
        w += expect(k);
    }
    if (s != w) {
        printf("ERROR %.1f != %.1f\n", s, w);
        return 1;
    }
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
