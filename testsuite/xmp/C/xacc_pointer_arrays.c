/* Aligned pointer arrays in OpenACC data clauses (Omni's XACC C-Square/array/489.c,
 * reflect_array4d_dist4d_lxux.c): an `int (*g)[N]` allocated by xmp_malloc, a 1-D
 * `double *d`, and a parameter `double b[N][N]` aligned in the callee; each clause
 * moves the node's block `p[0:1][0:n]`, and `reflect ... acc` stages it.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <xmp.h>
#define N 12
#pragma xmp nodes p[2][2]
#pragma xmp template t[N][N]
#pragma xmp distribute t[block][block] onto p
#pragma xmp nodes q[*]
#pragma xmp template u[N]
#pragma xmp distribute u[block] onto q
int (*g)[N];
#pragma xmp align g[i][j] with t[i][j]
#pragma xmp shadow g[1][1]
double *d;
#pragma xmp align d[i] with u[i]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d node %d: %s\n", __LINE__, xmp_node_num(), #c); } } while (0)

static void param(double b[N][N])
{
#pragma xmp align b[i][j] with t[i][j]
#pragma xmp shadow b[1][1]
#pragma acc data copy(b)
    {
#pragma xmp loop [i][j] on t[i][j]
#pragma acc parallel loop collapse(2)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                b[i][j] = 2.0 * i + j;
#pragma xmp reflect (b) acc
    }
#pragma xmp loop [i][j] on t[i][j]
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            CHECK(b[i - 1][j] + b[i + 1][j] + b[i][j - 1] + b[i][j + 1] == 4.0 * (2.0 * i + j));
}

int main(void)
{
    int (*l)[N];
#pragma xmp align l[i][j] with t[i][j]
    double b[N][N];
#pragma xmp align b[i][j] with t[i][j]
#pragma xmp shadow b[1][1]
    g = (int (*)[N])xmp_malloc(xmp_desc_of(g), N, N);
    l = (int (*)[N])xmp_malloc(xmp_desc_of(l), N, N);
    d = (double *)xmp_malloc(xmp_desc_of(d), N);
#pragma acc data copy(g, l, d)
    {
#pragma xmp loop [i][j] on t[i][j]
#pragma acc parallel loop collapse(2)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                g[i][j] = i * 100 + j;
                l[i][j] = i * 100 + j + 1;
            }
#pragma xmp loop [i] on u[i]
#pragma acc parallel loop
        for (int i = 0; i < N; i++)
            d[i] = 0.5 * i;
#pragma xmp reflect (g) acc
    }
#pragma acc enter data copyin(g)
#pragma acc update self(g)
#pragma acc exit data delete(g)
#pragma xmp loop [i][j] on t[i][j]
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++) {
            CHECK(g[i - 1][j] + g[i + 1][j] + g[i][j - 1] + g[i][j + 1] == 4 * (i * 100 + j));
            CHECK(l[i][j] == i * 100 + j + 1);
        }
#pragma xmp loop [i] on u[i]
    for (int i = 0; i < N; i++)
        CHECK(d[i] == 0.5 * i);
    param(b);
#pragma xmp reduction (+:nerr)
    if (nerr) {
        printf("ERROR: %d failed checks\n", nerr);
        return 1;
    }
#pragma xmp task on q[0]
    printf("PASS\n");
    return 0;
}
