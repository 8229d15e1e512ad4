/*
 * Less common directives: a periodic reflect started asynchronously and
 * completed with wait_async, the array directive on an array assignment,
 * reduce_shadow, and a template whose size is fixed at run time
 * (template_fix + xmp_malloc).
 *
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>

#define N 128

#pragma xmp nodes p(4)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p

double a[N], b[N], c[N];
#pragma xmp align a[i] with t(i)
#pragma xmp align b[i] with t(i)
#pragma xmp align c[i] with t(i)
#pragma xmp shadow a[1:1]
#pragma xmp shadow c[1:1]

/* a template sized at run time */
#pragma xmp template td(:)
#pragma xmp distribute td(block) onto p
double *d;
#pragma xmp align d[i] with td(i)

int main(int argc, char **argv)
{
    int i, n = argc > 1 ? atoi(argv[1]) : 64, errors = 0;
    double s = 0.0;

#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) {
        a[i] = i;
        c[i] = 0.0;
    }
#pragma xmp reflect (c)

    /* periodic halo: a[-1] is a[N-1] and a[N] is a[0] */
#pragma xmp reflect (a) width(/periodic/1:1) async(1)
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        b[i] = 2.0 * a[i];
#pragma xmp wait_async (1)

#pragma xmp loop on t(i) reduction(+:errors)
    for (i = 0; i < N; i++) {
        double left = a[i - 1], right = a[i + 1];
        if (left != (double)((i + N - 1) % N) || right != (double)((i + 1) % N))
            errors++;
    }

    /* array assignment over the whole template */
#pragma xmp array on t(:)
    b[:] = b[:] + 1.0;

#pragma xmp loop on t(i) reduction(+:s)
    for (i = 0; i < N; i++)
        s += b[i];
    if (s != 2.0 * N * (N - 1) / 2 + N)
        errors++;

    /* every node adds 1 to its neighbours' halo copies; reduce_shadow sums them back */
#pragma xmp loop on t(i)
    for (i = 1; i < N - 1; i++) {
        c[i - 1] += 1.0;
        c[i + 1] += 1.0;
    }
#pragma xmp reduce_shadow (c)
    s = 0.0;
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 0; i < N; i++)
        s += c[i];
    if (s != 2.0 * (N - 2))
        errors++;

#pragma xmp template_fix td(0:n-1)
    d = (double *)xmp_malloc(xmp_desc_of(d), n);
#pragma xmp loop on td(i)
    for (i = 0; i < n; i++)
        d[i] = 1.0;
    s = 0.0;
#pragma xmp loop on td(i) reduction(+:s)
    for (i = 0; i < n; i++)
        s += d[i];
    if (s != n)
        errors++;

    if (xmp_node_num() == 1)
        printf(errors == 0 ? "PASS\n" : "ERROR: %d\n", errors);
    return errors != 0;
}
