/* `align` of function parameters (Omni's align/scope.c and template_fix/arg.c,
 * further): a block array with a shadow reflected inside the callee, a cyclic one,
 * a 2-D one with a `*` dimension, a pointer array on a template fixed by
 * `template_fix` (the parameter's extent read from the template at run time),
 * a function called twice with different arrays; a `return` inside a `task`; a
 * file-scope array aligned inside main (Omni's array/516.c).
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 24
#define M 3
#pragma xmp nodes p[*]
#pragma xmp template t[N]
#pragma xmp distribute t[block] onto p
#pragma xmp template tc[N]
#pragma xmp distribute tc[cyclic] onto p
#pragma xmp template u[:]
#pragma xmp distribute u[block] onto p
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)

double a[N], a2[N];
#pragma xmp align a[i] with t[i]
#pragma xmp align a2[i] with t[i]
#pragma xmp shadow a[1]
#pragma xmp shadow a2[1]
int c[N];
#pragma xmp align c[i] with tc[i]
int m[N][M];
#pragma xmp align m[i][*] with t[i]
int *q;
#pragma xmp align q[i] with u[i]
long g[N];

/* out[i] = b[i-1] + b[i+1] on the inner points, through the callee's reflect */
static double neighbours(double b[N])
{
#pragma xmp align b[i] with t[i]
#pragma xmp shadow b[1]
    double s = 0;
#pragma xmp reflect (b)
#pragma xmp loop on t[i] reduction(+:s)
    for (int i = 1; i < N - 1; i++)
        s += b[i - 1] + b[i + 1];
    return s;
}

static void scale(int v[N], int f)
{
#pragma xmp align v[i] with tc[i]
#pragma xmp loop on tc[i]
    for (int i = 0; i < N; i++)
        v[i] *= f;
}

static long rows(int r[N][M])
{
#pragma xmp align r[i][*] with t[i]
    long s = 0;
#pragma xmp loop on t[i] reduction(+:s)
    for (int i = 0; i < N; i++)
        for (int k = 0; k < M; k++)
            s += r[i][k];
    return s;
}

static long fixed(int *b)
{
#pragma xmp align b[i] with u[i]
    long s = 0;
#pragma xmp loop on u[i] reduction(+:s)
    for (int i = 0; i < N; i++)
        s += b[i];
    return s;
}

/* 1 on node 1 when x is wrong: the `return` leaves the task */
static int first_checks(long x)
{
#pragma xmp task on p[0]
    {
        if (x != 7)
            return 1;
    }
    return 0;
}

int main(void)
{
#pragma xmp loop on t[i]
    for (int i = 0; i < N; i++) {
        a[i] = i;
        a2[i] = 2 * i;
        for (int k = 0; k < M; k++)
            m[i][k] = k * N + i;
    }
#pragma xmp loop on tc[i]
    for (int i = 0; i < N; i++)
        c[i] = i;
    double inner = 0;
    for (int i = 1; i < N - 1; i++)
        inner += 2.0 * i;
    CHECK(neighbours(a) == inner);
    CHECK(neighbours(a2) == 2 * inner);
    scale(c, 3);
    long sc = 0;
#pragma xmp loop on tc[i] reduction(+:sc)
    for (int i = 0; i < N; i++)
        sc += c[i];
    CHECK(sc == 3 * N * (N - 1) / 2);
    CHECK(rows(m) == (long)(M * N) * (M * N - 1) / 2);

#pragma xmp template_fix[block] u[N]
    q = (int *)xmp_malloc(xmp_desc_of(q), N);
#pragma xmp loop on u[i]
    for (int i = 0; i < N; i++)
        q[i] = 5 * i;
    CHECK(fixed(q) == 5L * N * (N - 1) / 2);

    CHECK(first_checks(7) == 0);
    int r = first_checks(8);
    CHECK(r == (xmpc_node_num() == 0 ? 1 : 0));

    /* a file-scope array aligned here */
#pragma xmp align g[i] with tc[i]
#pragma xmp loop on tc[i]
    for (int i = 0; i < N; i++)
        g[i] = i + 1;
    long sg = 0;
#pragma xmp loop on tc[i] reduction(+:sg)
    for (int i = 0; i < N; i++)
        sg += g[i];
    CHECK(sg == (long)N * (N + 1) / 2);

#pragma xmp reduction(+:nerr)
    if (xmpc_node_num() == 0)
        printf(nerr ? "ERROR: %d failure(s)\n" : "PASS\n", nerr);
    return nerr != 0;
}
