/*
 * Reductions: + * max min with locations (maxloc/minloc), firstmax, bit and
 * logical operators, in loop clauses and as standalone directives.
 * Works on any number of nodes (p(*)).
 *
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <xmp.h>

#define N 1000

#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p

int a[N];
double w[N];
#pragma xmp align a[i] with t(i)
#pragma xmp align w[i] with t(i)

static int value(int i)
{
    return (i * 37 + 11) % 997;
}

int main(void)
{
    int i, errors = 0;
    long sum = 0;
    double prod = 1.0;
    int mx = -1, imx = -1, mn = 1 << 30, imn = -1;
    int fmx = -1, ifmx = -1;
    unsigned bits_or = 0, bits_and = ~0u;
    int all_pos = 1, any_big = 0;

#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) {
        a[i] = value(i);
        w[i] = (i % 10 == 0) ? 1.001 : 1.0;
    }

#pragma xmp loop on t(i) reduction(+:sum) reduction(*:prod)
    for (i = 0; i < N; i++) {
        sum += a[i];
        prod *= w[i];
    }

#pragma xmp loop on t(i) reduction(max:mx/imx/) reduction(min:mn/imn/)
    for (i = 0; i < N; i++) {
        if (a[i] > mx) { mx = a[i]; imx = i; }
        if (a[i] < mn) { mn = a[i]; imn = i; }
    }

    /* standalone reductions on values computed locally */
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) {
        if (a[i] > fmx) { fmx = a[i]; ifmx = i; }
        bits_or |= (unsigned)a[i];
        bits_and &= (unsigned)a[i] | 0x100u;
        all_pos = all_pos && (a[i] >= 0);
        any_big = any_big || (a[i] > 990);
    }
#pragma xmp reduction(firstmax:fmx/ifmx/)
#pragma xmp reduction(|:bits_or) on p
#pragma xmp reduction(&:bits_and)
#pragma xmp reduction(&&:all_pos) reduction(||:any_big)

    /* sequential check */
    {
        long s = 0;
        int m = -1, im = -1, n = 1 << 30, in = -1;
        unsigned bo = 0, ba = ~0u;
        int big = 0;
        for (i = 0; i < N; i++) {
            int v = value(i);
            s += v;
            if (v > m) { m = v; im = i; }
            if (v < n) { n = v; in = i; }
            bo |= (unsigned)v;
            ba &= (unsigned)v | 0x100u;
            big = big || v > 990;
        }
        if (s != sum) errors++;
        if (m != mx || im != imx) errors++;
        if (n != mn || in != imn) errors++;
        if (m != fmx || im != ifmx) errors++;
        if (bo != bits_or || ba != bits_and) errors++;
        if (!all_pos || any_big != big) errors++;
        if (prod < 1.09 || prod > 1.12) errors++;
    }

    if (xmp_node_num() == 1)
        printf(errors == 0 ? "PASS\n" : "ERROR\n");
    return errors != 0;
}
