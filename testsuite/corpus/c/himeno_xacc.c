/*
 * Himeno-like Jacobi kernel (19-point stencil, constant coefficients) in
 * XcalableACC: the outer dimension is block-distributed, halos move on the
 * device with reflect_do ... acc, gosa is reduced on the device.
 * The same kernel runs sequentially on every node for the check.
 *
 * xmpc-test: np=4 acc
 */
#include <stdio.h>
#include <xmp.h>

#define MIMAX 65
#define MJMAX 33
#define MKMAX 33
#define NN    20

#pragma xmp nodes p(*)
#pragma xmp template t(0:MIMAX-1)
#pragma xmp distribute t(block) onto p

float p[MIMAX][MJMAX][MKMAX];
float wrk2[MIMAX][MJMAX][MKMAX];
float bnd[MIMAX][MJMAX][MKMAX];
#pragma xmp align [i][*][*] with t(i) :: p, wrk2, bnd
#pragma xmp shadow p[1:1][0][0]

static float sp[MIMAX][MJMAX][MKMAX], swrk[MIMAX][MJMAX][MKMAX];

static const float a0 = 1.0f, a3 = 1.0f / 6.0f, b0 = 0.0f, c0 = 1.0f, omega = 0.8f;

static void init_ref(void)
{
    int i, j, k;
    for (i = 0; i < MIMAX; i++)
        for (j = 0; j < MJMAX; j++)
            for (k = 0; k < MKMAX; k++)
                sp[i][j][k] = (float)(i * i) / (float)((MIMAX - 1) * (MIMAX - 1));
}

static float jacobi_ref(int nn)
{
    int i, j, k, n;
    float gosa = 0.0f, s0, ss;
    for (n = 0; n < nn; n++) {
        gosa = 0.0f;
        for (i = 1; i < MIMAX - 1; i++)
            for (j = 1; j < MJMAX - 1; j++)
                for (k = 1; k < MKMAX - 1; k++) {
                    s0 = a0 * sp[i + 1][j][k] + a0 * sp[i][j + 1][k] + a0 * sp[i][j][k + 1]
                       + b0 * (sp[i + 1][j + 1][k] - sp[i + 1][j - 1][k] - sp[i - 1][j + 1][k] + sp[i - 1][j - 1][k])
                       + c0 * sp[i - 1][j][k] + c0 * sp[i][j - 1][k] + c0 * sp[i][j][k - 1];
                    ss = (s0 * a3 - sp[i][j][k]) * 1.0f;
                    gosa += ss * ss;
                    swrk[i][j][k] = sp[i][j][k] + omega * ss;
                }
        for (i = 1; i < MIMAX - 1; i++)
            for (j = 1; j < MJMAX - 1; j++)
                for (k = 1; k < MKMAX - 1; k++)
                    sp[i][j][k] = swrk[i][j][k];
    }
    return gosa;
}

static float jacobi(int nn)
{
    int i, j, k, n;
    float gosa = 0.0f, s0, ss;

#pragma acc data present(p, wrk2, bnd)
    for (n = 0; n < nn; n++) {
        gosa = 0.0f;
#pragma xmp reflect_do (p) acc
#pragma xmp loop (i) on t(i)
#pragma acc parallel loop reduction(+:gosa) private(s0, ss) collapse(2)
        for (i = 1; i < MIMAX - 1; i++)
            for (j = 1; j < MJMAX - 1; j++)
#pragma acc loop reduction(+:gosa) private(s0, ss)
                for (k = 1; k < MKMAX - 1; k++) {
                    s0 = a0 * p[i + 1][j][k] + a0 * p[i][j + 1][k] + a0 * p[i][j][k + 1]
                       + b0 * (p[i + 1][j + 1][k] - p[i + 1][j - 1][k] - p[i - 1][j + 1][k] + p[i - 1][j - 1][k])
                       + c0 * p[i - 1][j][k] + c0 * p[i][j - 1][k] + c0 * p[i][j][k - 1];
                    ss = (s0 * a3 - p[i][j][k]) * bnd[i][j][k];
                    gosa += ss * ss;
                    wrk2[i][j][k] = p[i][j][k] + omega * ss;
                }

#pragma xmp loop (i) on t(i)
#pragma acc parallel loop collapse(3)
        for (i = 1; i < MIMAX - 1; i++)
            for (j = 1; j < MJMAX - 1; j++)
                for (k = 1; k < MKMAX - 1; k++)
                    p[i][j][k] = wrk2[i][j][k];

#pragma xmp reduction (+:gosa) acc
    }
    return gosa;
}

int main(void)
{
    int i, j, k;
    float gosa, ref, rel;

#pragma xmp loop (i) on t(i)
    for (i = 0; i < MIMAX; i++)
        for (j = 0; j < MJMAX; j++)
            for (k = 0; k < MKMAX; k++) {
                p[i][j][k] = (float)(i * i) / (float)((MIMAX - 1) * (MIMAX - 1));
                wrk2[i][j][k] = 0.0f;
                bnd[i][j][k] = 1.0f;
            }

#pragma acc data copy(p) copyin(wrk2, bnd)
    {
#pragma xmp reflect_init (p) acc
        gosa = jacobi(NN);
    }

    init_ref();
    ref = jacobi_ref(NN);
    rel = (gosa - ref) / ref;
    if (rel < 0)
        rel = -rel;

    if (xmp_node_num() == 1) {
        if (rel < 1e-3f)
            printf("PASS\n");
        else
            printf("ERROR: gosa %e, expected %e\n", gosa, ref);
    }
    return rel < 1e-3f ? 0 : 1;
}
