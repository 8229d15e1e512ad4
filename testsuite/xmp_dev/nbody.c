/* N-body (the thesis' benchmark, seed 002 §4.5.3) in XMP-dev/StarPU style: the
 * positions are full-shadow arrays exchanged by reflect (an allgather) after each
 * step; the force loop and the update loop are device loops, split between the CPU
 * workers and the GPU by the CPU weight. Build with -DPAPER_RULE for the thesis'
 * ±0.01 weight rule (list 4.6); XMPC_WEIGHT=auto lets the runtime choose.
 * Prints a checksum that nbody_seq.c reproduces bit for bit. */
#include <stdio.h>
#include <math.h>
#include <xmp.h>

#ifndef N
#define N 2048
#endif
#ifndef STEPS
#define STEPS 4
#endif
#define DT 0.01
#define EPS2 0.01

#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p

double px[N], py[N], pz[N], m[N], vx[N], vy[N], vz[N];
#pragma xmp align [i] with t(i) :: px, py, pz, m, vx, vy, vz
#pragma xmp shadow px[*]
#pragma xmp shadow py[*]
#pragma xmp shadow pz[*]
#pragma xmp shadow m[*]

int main(void)
{
    int i, step;
    double w = 0.2;

#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) {
        px[i] = (double)((i * 37) % 101) / 101.0;
        py[i] = (double)((i * 53) % 103) / 103.0;
        pz[i] = (double)((i * 71) % 107) / 107.0;
        m[i] = 1.0 + (i % 7) * 0.125;
        vx[i] = 0.0;
        vy[i] = 0.0;
        vz[i] = 0.0;
    }
#pragma xmp reflect (px, py, pz, m)

#pragma xmp device replicate (px, py, pz, m, vx, vy, vz)
    {
#pragma xmp device replicate_sync in (px, py, pz, m, vx, vy, vz)
        for (step = 0; step < STEPS; step++) {
#pragma xmp device loop on t(i)
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
#ifdef PAPER_RULE
            {
                /* the thesis' rule (list 4.6): move the CPU weight by 0.01 */
                double cpu = xmp_cpu_wtime(), gpu = xmp_gpu_wtime();
                double ratio = cpu / (cpu + gpu) * 100;
                if (ratio > 51)
                    w -= 0.01;
                if (ratio < 49)
                    w += 0.01;
            }
#pragma xmp device reset_weight (w)
#endif
#pragma xmp device loop on t(i)
            for (i = 0; i < N; i++) {
                px[i] += DT * vx[i];
                py[i] += DT * vy[i];
                pz[i] += DT * vz[i];
            }
#pragma xmp device replicate_sync out (px, py, pz)
#pragma xmp reflect (px, py, pz)
#pragma xmp device replicate_sync in (px, py, pz)
        }
    }
    (void)w;
    if (xmp_node_num() == 1) {
        double s = 0.0;
        for (i = 0; i < N; i++)
            s += px[i] + 2.0 * py[i] + 3.0 * pz[i];
        printf("nbody checksum %.17g\n", s);
    }
    return 0;
}
