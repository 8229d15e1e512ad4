/* reflect_do through xmpc: a 2-D array of NY x NX doubles, rows block-distributed,
 * shadow of one row each side; reflect_init once, then ITER timed reflect_do (acc
 * form, in an acc data region: gcc -fopenacc host fallback). Prints the mean time
 * per reflect_do in microseconds (max over nodes) and a checksum of the halos. */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#ifndef NX
#define NX 8192
#endif
#ifndef NY
#define NY 512
#endif
#ifndef ITER
#define ITER 1000
#endif
#pragma xmp nodes p(*)
#pragma xmp template t(0:NY-1)
#pragma xmp distribute t(block) onto p
double u[NY][NX];
#pragma xmp align u[j][*] with t(j)
#pragma xmp shadow u[1:1][0]

int main(void)
{
    int i, j, k;
    double t0, t1, dt, chk = 0.0;
#pragma xmp loop on t(j)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            u[j][i] = j + 1e-4 * i;
#pragma acc data copy(u)
    {
#pragma xmp reflect_init (u) acc
        for (k = 0; k < ITER / 10; k++) {
#pragma xmp reflect_do (u) acc
        }
#pragma xmp barrier
        t0 = xmp_wtime();
        for (k = 0; k < ITER; k++) {
#pragma xmp reflect_do (u) acc
        }
        t1 = xmp_wtime();
    }
    dt = (t1 - t0) / ITER * 1e6;
#pragma xmp reduction (max:dt)
#pragma xmp loop on t(j)
    for (j = 1; j < NY - 1; j++)
        chk += u[j - 1][7] + u[j + 1][NX - 1];
#pragma xmp reduction (+:chk)
    if (xmp_node_num() == 1)
        printf("xmpc reflect_do: %.2f us  checksum %.6f\n", dt, chk);
    return 0;
}
