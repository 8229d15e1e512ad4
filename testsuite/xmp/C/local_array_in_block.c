/* A distributed array declared in a nested block (a loop body) is freed at the
 * block's end and by the break/continue/return that leave it (Omni's XACC
 * reflect_array4d_dist4d_lxux.c makes 4 such arrays in each of 256 iterations).
 * Each iteration here reflects a fresh array, so every one has a shared-memory halo
 * plan: arrays left alive fill the node arena, then exhaust MPI's windows (before:
 * MPICH aborted in MPI_Win_allocate_shared).
 * xmpc-test: np=2
 */
#include <stdio.h>
#include <xmp.h>
#define N 64
#define ITERS 2000
#pragma xmp nodes p[*]
#pragma xmp template t[N]
#pragma xmp distribute t[block] onto p
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d node %d: %s\n", __LINE__, xmp_node_num(), #c); } } while (0)

static int step(int it)
{
    for (int k = 0; k < 3; k++) {
        double a[N][40];
#pragma xmp align a[i][*] with t[i]
#pragma xmp shadow a[1][0]
#pragma xmp loop [i] on t[i]
        for (int i = 0; i < N; i++)
            for (int j = 0; j < 40; j++)
                a[i][j] = i + it + k;
#pragma xmp reflect (a)
#pragma xmp loop [i] on t[i]
        for (int i = 1; i < N - 1; i++)
            CHECK(a[i - 1][3] + a[i + 1][3] == 2.0 * (i + it + k));
        switch (k) {
        case 0:
            break; /* leaves the switch only */
        case 1:
            continue;
        default:
            if (it % 7 == 3)
                return 1;
            break;
        }
        if (it % 5 == 1)
            break;
    }
    return 0;
}

int main(void)
{
    int returns = 0, expect = 0;
    for (int it = 0; it < ITERS; it++) {
        float b[N];
#pragma xmp align b[i] with t[i]
#pragma xmp shadow b[1]
#pragma xmp loop [i] on t[i]
        for (int i = 0; i < N; i++)
            b[i] = i;
#pragma xmp reflect (b)
        returns += step(it);
        expect += it % 7 == 3 && it % 5 != 1;
#pragma xmp loop [i] on t[i]
        for (int i = 1; i < N - 1; i++)
            CHECK(b[i - 1] + b[i + 1] == 2.0f * i);
        if (it % 11 == 4)
            continue;
    }
    CHECK(returns == expect);
#pragma xmp reduction (+:nerr)
    if (nerr) {
        printf("ERROR: %d failed checks\n", nerr);
        return 1;
    }
#pragma xmp task on p[0]
    printf("PASS\n");
    return 0;
}
