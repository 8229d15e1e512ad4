/* The sequential twin of nbody.c: the same arithmetic in the same order. */
#include <stdio.h>
#include <math.h>

#ifndef N
#define N 2048
#endif
#ifndef STEPS
#define STEPS 4
#endif
#define DT 0.01
#define EPS2 0.01

double px[N], py[N], pz[N], m[N], vx[N], vy[N], vz[N];

int main(void)
{
    int i, step;
    for (i = 0; i < N; i++) {
        px[i] = (double)((i * 37) % 101) / 101.0;
        py[i] = (double)((i * 53) % 103) / 103.0;
        pz[i] = (double)((i * 71) % 107) / 107.0;
        m[i] = 1.0 + (i % 7) * 0.125;
        vx[i] = vy[i] = vz[i] = 0.0;
    }
    for (step = 0; step < STEPS; step++) {
        for (i = 0; i < N; i++) {
            double ax = 0.0, ay = 0.0, az = 0.0;
            int j;
            for (j = 0; j < N; j++) {
                double dx = px[j] - px[i], dy = py[j] - py[i], dz = pz[j] - pz[i];
                double r2 = dx * dx + dy * dy + dz * dz + EPS2;
                double inv = m[j] / (r2 * sqrt(r2));
                ax += dx * inv;
                ay += dy * inv;
                az += dz * inv;
            }
            vx[i] += DT * ax;
            vy[i] += DT * ay;
            vz[i] += DT * az;
        }
        for (i = 0; i < N; i++) {
            px[i] += DT * vx[i];
            py[i] += DT * vy[i];
            pz[i] += DT * vz[i];
        }
    }
    double s = 0.0;
    for (i = 0; i < N; i++)
        s += px[i] + 2.0 * py[i] + 3.0 * pz[i];
    printf("nbody checksum %.17g\n", s);
    return 0;
}
