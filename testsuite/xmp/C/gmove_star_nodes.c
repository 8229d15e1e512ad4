/* gmove with an array on a node set made with `*` in its node reference
 * (Omni C: `*` = the executing node's own coordinate). `row[2] = q[0:2][*]`
 * is one set per column of q, and x (on row) is replicated over that family;
 * `col[*] = q[*][:]` is one set per row of q (y replicated twice). A gmove
 * into x or y fills every replica; one from them reads any replica. Every
 * node checks every element it owns (its own replica) and the local copies.
 * xmpc-test: np=4,8
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 23
#define M 2
#pragma xmp nodes q[2][*]
#pragma xmp nodes row[2] = q[0:2][*]
#pragma xmp nodes col[*] = q[*][:]
#pragma xmp template tb[M][N]
#pragma xmp distribute tb[block][cyclic(3)] onto q
#pragma xmp template tx[N]
#pragma xmp distribute tx[cyclic(2)] onto row
#pragma xmp template ty[N]
#pragma xmp distribute ty[block] onto col
int b[M][N], x[N], y[N];
#pragma xmp align b[i][j] with tb[i][j]
#pragma xmp align x[i] with tx[i]
#pragma xmp align y[i] with ty[i]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR node %d line %d: %s\n", xmp_node_num(), __LINE__, #c); } } while (0)
#define BV(i, j) (100 * (i) + (j))
int main(void)
{
    int i, j, loc[N];
#pragma xmp loop on tb[i][j]
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++)
            b[i][j] = BV(i, j);
#pragma xmp loop on tx[i]
    for (i = 0; i < N; i++)
        x[i] = -1;
#pragma xmp loop on ty[i]
    for (i = 0; i < N; i++)
        y[i] = -2;

    /* 1. into the row family, from a section of b shifted by 4 */
#pragma xmp gmove
    x[3:15] = b[1][7:15];
#pragma xmp loop on tx[i]
    for (i = 0; i < N; i++)
        CHECK(x[i] == (i >= 3 && i < 18 ? BV(1, i + 4) : -1));

    /* 2. row family to col family (both sides replicated) */
#pragma xmp gmove
    y[0:N] = x[0:N];
#pragma xmp loop on ty[i]
    for (i = 0; i < N; i++)
        CHECK(y[i] == (i >= 3 && i < 18 ? BV(1, i + 4) : -1));

    /* 3. from the col family into a local array (every node's copy) */
    for (i = 0; i < N; i++)
        loc[i] = -3;
#pragma xmp gmove
    loc[2:10] = y[5:10];
    for (i = 0; i < N; i++)
        CHECK(loc[i] == (i >= 2 && i < 12 ? BV(1, i + 7) : -3));

    /* 4. from the row family into b (not replicated), reversed by stride */
#pragma xmp gmove
    b[0][3:15] = x[17:15:-1];
#pragma xmp loop on tb[i][j]
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++)
            CHECK(b[i][j] == (i == 0 && j >= 3 && j < 18 ? BV(1, 24 - j) : BV(i, j)));

    /* 5. local array into the col family (each replica from its own copy) */
    for (i = 0; i < N; i++)
        loc[i] = 7 * i;
#pragma xmp gmove
    y[0:N] = loc[0:N];
#pragma xmp loop on ty[i]
    for (i = 0; i < N; i++)
        CHECK(y[i] == 7 * i);

#pragma xmp reduction(+:nerr)
    if (xmp_node_num() == 1) {
        if (nerr)
            printf("ERROR: %d failed checks on %d nodes\n", nerr, xmp_num_nodes());
        else
            printf("PASS\n");
    }
    return nerr != 0;
}
