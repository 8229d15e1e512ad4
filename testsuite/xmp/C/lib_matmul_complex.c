/* xmp_matmul on double _Complex and float _Complex operands (block x cyclic result,
 * operands distributed differently), against the sequential complex triple loop.
 * The element types are typedef names: the declarations of the arrays need no
 * `_Complex` declarator (the typedef lines are plain C, kept as written).
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <complex.h>
#include <xmp.h>
typedef double _Complex zdouble;
typedef float _Complex zfloat;
#define N1 6
#define N2 4
#define N3 5
#pragma xmp nodes p(*)
#pragma xmp template ta(0:N2-1, 0:N1-1)
#pragma xmp template tb(0:N3-1, 0:N2-1)
#pragma xmp template tx(0:N3-1, 0:N1-1)
#pragma xmp distribute ta(block, *) onto p
#pragma xmp distribute tb(*, cyclic) onto p
#pragma xmp distribute tx(cyclic, *) onto p
zdouble a[N1][N2], b[N2][N3], x[N1][N3];
zfloat fa[N1][N2], fb[N2][N3], fx[N1][N3];
#pragma xmp align a[i][j] with ta(j, i)
#pragma xmp align b[i][j] with tb(j, i)
#pragma xmp align x[i][j] with tx(j, i)
#pragma xmp align fa[i][j] with ta(j, i)
#pragma xmp align fb[i][j] with tb(j, i)
#pragma xmp align fx[i][j] with tx(j, i)
static zdouble A(int i, int k) { return (i - k) + (i + 2 * k) * I; }
static zdouble B(int k, int j) { return (k * j % 5) - (j - k) * I; }
int main(void)
{
    int nerr = 0, i, j, k;
    zdouble r[N1][N3];
    for (i = 0; i < N1; i++)
        for (j = 0; j < N3; j++) {
            r[i][j] = 0;
            for (k = 0; k < N2; k++) r[i][j] += A(i, k) * B(k, j);
        }
#pragma xmp loop on ta(k, i)
    for (i = 0; i < N1; i++)
        for (k = 0; k < N2; k++) { a[i][k] = A(i, k); fa[i][k] = (zfloat)A(i, k); }
#pragma xmp loop on tb(j, k)
    for (k = 0; k < N2; k++)
        for (j = 0; j < N3; j++) { b[k][j] = B(k, j); fb[k][j] = (zfloat)B(k, j); }
    xmp_matmul(xmp_desc_of(x), xmp_desc_of(a), xmp_desc_of(b));
    xmp_matmul(xmp_desc_of(fx), xmp_desc_of(fa), xmp_desc_of(fb));
#pragma xmp loop on tx(j, i) reduction(+:nerr)
    for (i = 0; i < N1; i++)
        for (j = 0; j < N3; j++) {
            if (x[i][j] != r[i][j]) nerr++;
            if (fx[i][j] != (zfloat)r[i][j]) nerr++;
        }
    if (nerr) {
        if (xmp_node_num() == 1) printf("ERROR: %d wrong elements\n", nerr);
        exit(1);
    }
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
