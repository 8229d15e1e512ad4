/* XcalableACC Himeno, the shape of the thesis' listing A.2: 3-D p, bnd, wrk1, wrk2
 * and 4-D coefficient arrays a, b, c aligned with a (*, block, block) template,
 * shadow p[1][1][0], reflect_init (p) acc once and a first reflect (p) acc, a (k, j, i) XMP loop nest with
 * `acc loop vector` on the inner loop, acc wait, reflect_do (p) acc and
 * reduction (+:gosa) acc with gosa created on the device and updated both ways.
 * The sequential twin on every node gives the expected gosa.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <xmp.h>
#define MIMAX 17
#define MJMAX 13
#define MKMAX 9
#define NN 6

float p[MIMAX][MJMAX][MKMAX], bnd[MIMAX][MJMAX][MKMAX], wrk1[MIMAX][MJMAX][MKMAX], wrk2[MIMAX][MJMAX][MKMAX];
float a[4][MIMAX][MJMAX][MKMAX], b[3][MIMAX][MJMAX][MKMAX], c[3][MIMAX][MJMAX][MKMAX];
#pragma xmp template t(0:MKMAX-1, 0:MJMAX-1, 0:MIMAX-1)
#pragma xmp nodes n(1, *)
#pragma xmp distribute t(*, block, block) onto n
#pragma xmp align p[i][j][k] with t(k, j, i)
#pragma xmp align bnd[i][j][k] with t(k, j, i)
#pragma xmp align wrk1[i][j][k] with t(k, j, i)
#pragma xmp align wrk2[i][j][k] with t(k, j, i)
#pragma xmp align a[*][i][j][k] with t(k, j, i)
#pragma xmp align b[*][i][j][k] with t(k, j, i)
#pragma xmp align c[*][i][j][k] with t(k, j, i)
#pragma xmp shadow p[1][1][0]

static float sp[MIMAX][MJMAX][MKMAX], sw2[MIMAX][MJMAX][MKMAX];

static float pinit(int i, int j, int k) { return (float)(i * i) / (float)((MIMAX - 1) * (MIMAX - 1)) + 0.001f * (float)(j + k); }

static float seq(void)
{
    const float omega = 0.8f;
    float gosa = 0.0f, s0, ss;
    int i, j, k, n;
    for (i = 0; i < MIMAX; i++)
        for (j = 0; j < MJMAX; j++)
            for (k = 0; k < MKMAX; k++)
                sp[i][j][k] = pinit(i, j, k);
    for (n = 0; n < NN; n++) {
        gosa = 0.0f;
        for (i = 1; i < MIMAX - 1; i++)
            for (j = 1; j < MJMAX - 1; j++)
                for (k = 1; k < MKMAX - 1; k++) {
                    s0 = 1.0f * sp[i + 1][j][k] + 1.0f * sp[i][j + 1][k] + 1.0f * sp[i][j][k + 1]
                       + 0.1f * (sp[i + 1][j + 1][k] - sp[i + 1][j - 1][k] - sp[i - 1][j + 1][k] + sp[i - 1][j - 1][k])
                       + 0.1f * (sp[i][j + 1][k + 1] - sp[i][j - 1][k + 1] - sp[i][j + 1][k - 1] + sp[i][j - 1][k - 1])
                       + 0.1f * (sp[i + 1][j][k + 1] - sp[i - 1][j][k + 1] - sp[i + 1][j][k - 1] + sp[i - 1][j][k - 1])
                       + 1.0f * sp[i - 1][j][k] + 1.0f * sp[i][j - 1][k] + 1.0f * sp[i][j][k - 1] + 0.0f;
                    ss = (s0 * (1.0f / 6.0f) - sp[i][j][k]) * 1.0f;
                    gosa += ss * ss;
                    sw2[i][j][k] = sp[i][j][k] + omega * ss;
                }
        for (i = 1; i < MIMAX - 1; i++)
            for (j = 1; j < MJMAX - 1; j++)
                for (k = 1; k < MKMAX - 1; k++)
                    sp[i][j][k] = sw2[i][j][k];
    }
    return gosa;
}

int main(void)
{
    const int imax = MIMAX, jmax = MJMAX, kmax = MKMAX;
    const float omega = 0.8f;
    float gosa = 0.0f, s0, ss, ref, rel;
    int i, j, k, n, l;

#pragma xmp loop (k, j, i) on t(k, j, i)
    for (i = 0; i < MIMAX; i++)
        for (j = 0; j < MJMAX; j++)
            for (k = 0; k < MKMAX; k++) {
                p[i][j][k] = pinit(i, j, k);
                bnd[i][j][k] = 1.0f;
                wrk1[i][j][k] = 0.0f;
                wrk2[i][j][k] = 0.0f;
                for (l = 0; l < 3; l++) {
                    a[l][i][j][k] = 1.0f;
                    b[l][i][j][k] = 0.1f;
                    c[l][i][j][k] = 1.0f;
                }
                a[3][i][j][k] = 1.0f / 6.0f;
            }

#pragma acc data copy(p, bnd, wrk1, wrk2, a, b, c) create(gosa)
    {
#pragma xmp reflect_init (p) acc
#pragma xmp reflect (p) acc
        for (n = 0; n < NN; ++n) {
            gosa = 0.0f;
#pragma acc update device(gosa)

#pragma xmp loop (k, j, i) on t(k, j, i)
#pragma acc parallel loop firstprivate(omega) reduction(+:gosa) collapse(2) gang vector_length(64) async
            for (i = 1; i < imax - 1; ++i)
                for (j = 1; j < jmax - 1; ++j) {
#pragma acc loop vector reduction(+:gosa) private(s0, ss)
                    for (k = 1; k < kmax - 1; ++k) {
                        s0 = a[0][i][j][k] * p[i + 1][j][k] + a[1][i][j][k] * p[i][j + 1][k] + a[2][i][j][k] * p[i][j][k + 1]
                           + b[0][i][j][k] * (p[i + 1][j + 1][k] - p[i + 1][j - 1][k] - p[i - 1][j + 1][k] + p[i - 1][j - 1][k])
                           + b[1][i][j][k] * (p[i][j + 1][k + 1] - p[i][j - 1][k + 1] - p[i][j + 1][k - 1] + p[i][j - 1][k - 1])
                           + b[2][i][j][k] * (p[i + 1][j][k + 1] - p[i - 1][j][k + 1] - p[i + 1][j][k - 1] + p[i - 1][j][k - 1])
                           + c[0][i][j][k] * p[i - 1][j][k] + c[1][i][j][k] * p[i][j - 1][k] + c[2][i][j][k] * p[i][j][k - 1] + wrk1[i][j][k];
                        ss = (s0 * a[3][i][j][k] - p[i][j][k]) * bnd[i][j][k];
                        gosa += ss * ss;
                        wrk2[i][j][k] = p[i][j][k] + omega * ss;
                    }
                }

#pragma xmp loop (k, j, i) on t(k, j, i)
#pragma acc parallel loop collapse(2) gang vector_length(64) async
            for (i = 1; i < imax - 1; ++i)
                for (j = 1; j < jmax - 1; ++j) {
#pragma acc loop vector
                    for (k = 1; k < kmax - 1; ++k)
                        p[i][j][k] = wrk2[i][j][k];
                }

#pragma acc wait
#pragma xmp reflect_do (p) acc
#pragma xmp reduction (+:gosa) acc
#pragma acc update host(gosa)
        }
    }
    ref = seq();
    rel = (gosa - ref) / ref;
    if (rel < 0)
        rel = -rel;
    if (xmp_node_num() == 1)
        printf(rel < 1e-4f ? "PASS\n" : "ERROR gosa %e expected %e\n", gosa, ref);
    return !(rel < 1e-4f);
}
