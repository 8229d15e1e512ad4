/* loop reduction: the variable's value before the loop enters the result once
 * (Omni's C translator restarts it at 0 for +/-, 1 for *, on every node but the
 * first), and an array of rank 2 is reduced in all its elements.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 60
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
int a[N];
#pragma xmp align a[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static int f(int i) { return (i * 37 + 11) % 101; }
int main(void)
{
    int i, j, k, me = xmp_node_num();
    long s = 1000, ws = 1000;
    int d = 7, wd = 7;
    double m = 3.0, wm = 3.0;
    long h[3][4], wh[3][4];
    for (j = 0; j < 3; j++)
        for (k = 0; k < 4; k++)
            h[j][k] = wh[j][k] = 10 * j + k;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = f(i);
#pragma xmp loop on t(i) reduction(+:s, h) reduction(-:d) reduction(*:m)
    for (i = 0; i < N; i++) {
        s += a[i];
        d -= a[i] % 5;
        if (a[i] % 13 == 0)
            m *= 1.5;
        h[a[i] % 3][a[i] % 4] += a[i];
    }
    for (i = 0; i < N; i++) {
        ws += f(i);
        wd -= f(i) % 5;
        if (f(i) % 13 == 0)
            wm *= 1.5;
        wh[f(i) % 3][f(i) % 4] += f(i);
    }
    CHECK(s == ws);
    CHECK(d == wd);
    CHECK(m == wm);
    for (j = 0; j < 3; j++)
        for (k = 0; k < 4; k++)
            CHECK(h[j][k] == wh[j][k]);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
