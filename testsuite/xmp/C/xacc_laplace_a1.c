/* XcalableACC 2-D Laplace, the shape of the thesis' listing A.1: u and uu aligned
 * with a (block, block) template, shadows 1, reflect_init of both on device memory,
 * iterations alternating reflect_do (u) acc / reflect_do (uu) acc, gang/vector
 * loops with async(1) and acc wait. Nodes p(1, *) so it runs on any count; the
 * same iteration runs sequentially on every node and the sums must agree.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <math.h>
#include <xmp.h>
#define XSIZE 40
#define YSIZE 36
#define NITER 30

double u[XSIZE][YSIZE], uu[XSIZE][YSIZE];
#pragma xmp nodes p(1, *)
#pragma xmp template t(0:YSIZE-1, 0:XSIZE-1)
#pragma xmp distribute t(block, block) onto p
#pragma xmp align u[i][j] with t(j, i)
#pragma xmp align uu[i][j] with t(j, i)
#pragma xmp shadow u[1:1][1:1]
#pragma xmp shadow uu[1:1][1:1]

static double su[XSIZE][YSIZE], suu[XSIZE][YSIZE];

static double init(int x, int y) { return (x == 0 || y == 0 || x == XSIZE - 1 || y == YSIZE - 1) ? 1.0 + 0.01 * x : 0.5 * ((x * 7 + y * 3) % 5); }

int main(void)
{
    int x, y, k;
    double sum = 0.0, ref = 0.0;
#pragma xmp loop (y, x) on t(y, x)
    for (x = 0; x < XSIZE; x++)
        for (y = 0; y < YSIZE; y++)
            u[x][y] = uu[x][y] = init(x, y);

#pragma acc data copy(u, uu)
    {
#pragma xmp reflect_init (u) acc
#pragma xmp reflect_init (uu) acc
        for (k = 0; k < NITER; k++) {
            if ((k % 2) == 0) {
#pragma xmp reflect_do (u) acc

#pragma xmp loop (y, x) on t(y, x)
#pragma acc parallel loop gang vector_length(256) async(1)
                for (x = 1; x < XSIZE - 1; x++) {
#pragma acc loop vector
                    for (y = 1; y < YSIZE - 1; y++) {
                        uu[x][y] = (u[x - 1][y] + u[x + 1][y] + u[x][y - 1] + u[x][y + 1]) * 0.25;
                    }
                }
#pragma acc wait
            } else {
#pragma xmp reflect_do (uu) acc

#pragma xmp loop (y, x) on t(y, x)
#pragma acc parallel loop gang vector_length(256) async(1)
                for (x = 1; x < XSIZE - 1; x++) {
#pragma acc loop vector
                    for (y = 1; y < YSIZE - 1; y++)
                        u[x][y] = (uu[x - 1][y] + uu[x + 1][y] + uu[x][y - 1] + uu[x][y + 1]) * 0.25;
                }
#pragma acc wait
            }
        }
    }
#pragma xmp loop (y, x) on t(y, x) reduction(+:sum)
    for (x = 0; x < XSIZE; x++)
        for (y = 0; y < YSIZE; y++)
            sum += u[x][y] * (1 + x) + uu[x][y] * (1 + y);

    /* the sequential twin */
    for (x = 0; x < XSIZE; x++)
        for (y = 0; y < YSIZE; y++)
            su[x][y] = suu[x][y] = init(x, y);
    for (k = 0; k < NITER; k++) {
        if ((k % 2) == 0) {
            for (x = 1; x < XSIZE - 1; x++)
                for (y = 1; y < YSIZE - 1; y++)
                    suu[x][y] = (su[x - 1][y] + su[x + 1][y] + su[x][y - 1] + su[x][y + 1]) * 0.25;
        } else {
            for (x = 1; x < XSIZE - 1; x++)
                for (y = 1; y < YSIZE - 1; y++)
                    su[x][y] = (suu[x - 1][y] + suu[x + 1][y] + suu[x][y - 1] + suu[x][y + 1]) * 0.25;
        }
    }
    for (x = 0; x < XSIZE; x++)
        for (y = 0; y < YSIZE; y++)
            ref += su[x][y] * (1 + x) + suu[x][y] * (1 + y);
    int ok = fabs(sum - ref) <= 1e-9 * fabs(ref);
    if (xmp_node_num() == 1)
        printf(ok ? "PASS\n" : "ERROR sum %.15g ref %.15g\n", sum, ref);
    return !ok;
}
