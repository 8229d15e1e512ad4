/* xmp_matmul: x = a . b for int and double operands in three different
 * distributions (block x block, cyclic(2) x block, rows only) and a result
 * replicated along one node dimension, compared with the sequential triple loop.
 * xmpc-test: np=1,2,4,6
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N1 7
#define N2 5
#define N3 9
#pragma xmp nodes p(*)
#pragma xmp template ta(0:N2-1, 0:N1-1)
#pragma xmp template tb(0:N3-1, 0:N2-1)
#pragma xmp template tx(0:N3-1, 0:N1-1)
#pragma xmp distribute ta(*, block) onto p
#pragma xmp distribute tb(cyclic(2), *) onto p
#pragma xmp distribute tx(block, *) onto p
int a[N1][N2], b[N2][N3], x[N1][N3];
double da[N1][N2], db[N2][N3], dx[N1][N3];
#pragma xmp align a[i][j] with ta(j, i)
#pragma xmp align b[i][j] with tb(j, i)
#pragma xmp align x[i][j] with tx(j, i)
#pragma xmp align da[i][j] with ta(j, i)
#pragma xmp align db[i][j] with tb(j, i)
/* replicated over the rows: every node holds whole columns of dx */
#pragma xmp align dx[*][j] with tx(j, *)
static int A(int i, int k) { return (i * 3 + k * 5) % 11 - 4; }
static int B(int k, int j) { return (k * 7 + j * 2) % 13 - 6; }
int main(void)
{
    int nerr = 0, i, j, k;
    int rx[N1][N3];
    for (i = 0; i < N1; i++)
        for (j = 0; j < N3; j++) {
            rx[i][j] = 0;
            for (k = 0; k < N2; k++) rx[i][j] += A(i, k) * B(k, j);
        }
#pragma xmp loop on ta(k, i)
    for (i = 0; i < N1; i++)
        for (k = 0; k < N2; k++) { a[i][k] = A(i, k); da[i][k] = A(i, k) * 0.5; }
#pragma xmp loop on tb(j, k)
    for (k = 0; k < N2; k++)
        for (j = 0; j < N3; j++) { b[k][j] = B(k, j); db[k][j] = B(k, j) * 0.25; }
    xmp_matmul(xmp_desc_of(x), xmp_desc_of(a), xmp_desc_of(b));
#pragma xmp loop on tx(j, i) reduction(+:nerr)
    for (i = 0; i < N1; i++)
        for (j = 0; j < N3; j++) if (x[i][j] != rx[i][j]) nerr++;
    xmp_matmul(xmp_desc_of(dx), xmp_desc_of(da), xmp_desc_of(db));
    /* every owner of a column checks all of it (the replicas too) */
#pragma xmp loop on tx(j, *) reduction(+:nerr)
    for (j = 0; j < N3; j++)
        for (i = 0; i < N1; i++) if (dx[i][j] != rx[i][j] * 0.125) nerr++;
    if (nerr) {
        if (xmp_node_num() == 1) printf("ERROR: %d wrong elements\n", nerr);
        exit(1);
    }
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
