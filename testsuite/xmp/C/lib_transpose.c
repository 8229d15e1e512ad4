/* xmp_transpose: b[i][j] = a[j][i] between a block x block array and a cyclic x
 * block one of the transposed shape (non-square), compared with the sequential
 * values.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 11
#define M 6
#pragma xmp nodes p(*)
#pragma xmp nodes q(2,*)
#pragma xmp template ta(0:M-1, 0:N-1)
#pragma xmp template tb(0:N-1, 0:M-1)
#pragma xmp distribute ta(block, *) onto p
#pragma xmp distribute tb(cyclic, block) onto q
float a[N][M], b[M][N];
#pragma xmp align a[i][j] with ta(j, i)
#pragma xmp align b[i][j] with tb(j, i)
int main(void)
{
    int nerr = 0, i, j;
#pragma xmp loop on ta(j, i)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++) a[i][j] = i * 0.25f + j * 8;
#pragma xmp loop on tb(j, i)
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) b[i][j] = -1;
    xmp_transpose(xmp_desc_of(b), xmp_desc_of(a), 0);
#pragma xmp loop on tb(j, i) reduction(+:nerr)
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) if (b[i][j] != j * 0.25f + i * 8) nerr++;
    if (nerr) {
        if (xmp_node_num() == 1) printf("ERROR: %d wrong elements\n", nerr);
        exit(1);
    }
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
