/* A pointer array aligned inside a function (its layout was read into undeclared
 * variables), with a template fixed by template_fix in that function, a shadow and a
 * periodic reflect (Omni's template_fix/reflect.c pattern).
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 24
#pragma xmp nodes p(*)
#pragma xmp template t[N]
#pragma xmp distribute t[block] onto p
#pragma xmp template u[:]
#pragma xmp distribute u[block] onto p
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)

static long fixed_template(void)
{
    long s = 0;
    int *a;
#pragma xmp align a[i] with t[i]
    a = (int *)xmp_malloc(xmp_desc_of(a), N);
#pragma xmp loop on t[i]
    for (int i = 0; i < N; i++)
        a[i] = 3 * i;
#pragma xmp loop on t[i] reduction(+:s)
    for (int i = 0; i < N; i++)
        s += a[i];
    return s;
}

static void fixed_later(int n)
{
#pragma xmp template_fix u[n]
    int *b;
#pragma xmp align b[i] with u[i]
#pragma xmp shadow b[1]
    b = (int *)xmp_malloc(xmp_desc_of(b), n);
#pragma xmp loop on u[i]
    for (int i = 0; i < n; i++)
        b[i] = i;
#pragma xmp reflect (b) width(/periodic/1)
#pragma xmp loop on u[i]
    for (int i = 0; i < n; i++) {
        CHECK(b[i - 1] == (i - 1 + n) % n);
        CHECK(b[i + 1] == (i + 1) % n);
    }
}

int main(void)
{
    CHECK(fixed_template() == 3L * N * (N - 1) / 2);
    fixed_later(2 * N);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
