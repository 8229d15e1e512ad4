/*
 * XMP-dev: replicate arrays on the device, copy in/out with replicate_sync,
 * run the loop on the device, and retune the CPU weight between steps with
 * the paper's rule (move 1% towards an even CPU/GPU time split).
 *
 * xmpc-test: np=4 dev
 */
#include <stdio.h>
#include <xmp.h>

#define N     (1 << 16)
#define STEPS 10

#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p

float x[N], y[N];
#pragma xmp align [i] with t(i) :: x, y

int main(void)
{
    int i, step, errors = 0;
    float a = 2.0f;
    double w = 0.2;

#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) {
        x[i] = 1.0f;
        y[i] = (float)(i % 7);
    }

#pragma xmp device replicate (x, y)
    {
#pragma xmp device replicate_sync in (x, y)
        for (step = 0; step < STEPS; step++) {
            double cpu, gpu, ratio;

#pragma xmp device loop on t(i)
            for (i = 0; i < N; i++)
                y[i] = a * x[i] + y[i];

            cpu = xmp_cpu_wtime();
            gpu = xmp_gpu_wtime();
            ratio = (cpu + gpu) > 0.0 ? cpu / (cpu + gpu) : 0.5;
            if (ratio > 0.51)
                w -= 0.01;
            else if (ratio < 0.49)
                w += 0.01;
            if (w < 0.0) w = 0.0;
            if (w > 1.0) w = 1.0;
#pragma xmp device reset_weight (w)
        }
#pragma xmp device replicate_sync out (y)
    }

#pragma xmp loop on t(i) reduction(+:errors)
    for (i = 0; i < N; i++)
        if (y[i] != (float)(i % 7) + STEPS * a)
            errors++;

    if (xmp_node_num() == 1)
        printf(errors == 0 ? "PASS\n" : "ERROR: %d wrong elements\n", errors);
    return errors != 0;
}
