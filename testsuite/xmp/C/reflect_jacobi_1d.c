/* 200 iterations of a 1-D Jacobi smoother with reflect in the loop (the halo is
 * exchanged every step), compared element by element with a sequential run.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 101
#define IT 200
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
double u[N], v[N];
#pragma xmp align [i] with t(i) :: u, v
#pragma xmp shadow u[1]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
double su[N], sv[N];
int main(void)
{
    int i, k, me = xmp_node_num();
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        u[i] = (i == 0) ? 1.0 : (i == N - 1) ? -1.0 : (double)(i % 7);
    for (i = 0; i < N; i++)
        su[i] = (i == 0) ? 1.0 : (i == N - 1) ? -1.0 : (double)(i % 7);
    for (k = 0; k < IT; k++) {
#pragma xmp reflect (u)
#pragma xmp loop on t(i)
        for (i = 1; i < N - 1; i++)
            v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
#pragma xmp loop on t(i)
        for (i = 1; i < N - 1; i++)
            u[i] = v[i];
        for (i = 1; i < N - 1; i++)
            sv[i] = 0.5 * su[i] + 0.25 * (su[i - 1] + su[i + 1]);
        for (i = 1; i < N - 1; i++)
            su[i] = sv[i];
    }
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        CHECK(u[i] == su[i]);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
