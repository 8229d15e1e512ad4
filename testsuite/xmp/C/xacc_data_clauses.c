/* OpenACC data clauses naming aligned arrays (round spelling): enter/exit data,
 * update self/device, present, host_data use_device, copyin with a local 2-D
 * array beside them; each moves the node's block with its shadows.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <openacc.h>
#include <xmp.h>
#define N 16
#define M 5
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
float x[N][M], y[N][M];
#pragma xmp align x[i][*] with t(i)
#pragma xmp align y[i][*] with t(i)
#pragma xmp shadow x[1:1][0]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d node %d: %s\n", __LINE__, xmp_node_num(), #c); } } while (0)
static int nonnull(const void *p) { return p != 0; }
int main(void)
{
    int i, k, ok = 0;
    float w[M][2];
    for (k = 0; k < M; k++)
        w[k][0] = k, w[k][1] = 2 * k;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        for (k = 0; k < M; k++)
            x[i][k] = i + 0.25f * k;
#pragma acc enter data copyin(x, w) create(y)
#pragma xmp reflect (x) acc
#pragma xmp loop on t(i)
#pragma acc parallel loop present(x, y, w)
    for (i = 0; i < N; i++)
        for (k = 0; k < M; k++)
            y[i][k] = (i > 0 ? x[i - 1][k] : 0.0f) + (i < N - 1 ? x[i + 1][k] : 0.0f) + w[k][1];
#pragma acc update self(y)
#pragma acc host_data use_device(y)
    {
        ok = nonnull(&y[0][0]);
    }
#pragma acc exit data delete(x, w) copyout(y)
    CHECK(ok);
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        for (k = 0; k < M; k++)
            CHECK(y[i][k] == (i > 0 ? i - 1 + 0.25f * k : 0.0f) + (i < N - 1 ? i + 1 + 0.25f * k : 0.0f) + 2 * k);
#pragma xmp reduction (+:nerr)
    if (xmp_node_num() == 1)
        printf(nerr == 0 ? "PASS\n" : "ERROR %d\n", nerr);
    return nerr != 0;
}
