/* xmp_pack / xmp_unpack: the masked elements of a 2-D array (block x cyclic) in
 * row-major order into a vector (cyclic(3)) and back, the other elements untouched,
 * compared with the sequential loops.
 * xmpc-test: np=2,4,6
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define R 7
#define C 9
#define V (R * C)
#pragma xmp nodes p(*)
#pragma xmp nodes q(2,*)
#pragma xmp template t(0:C-1, 0:R-1)
#pragma xmp template tv(0:V-1)
#pragma xmp distribute t(cyclic, block) onto q
#pragma xmp distribute tv(cyclic(3)) onto p
long a[R][C];
int m[R][C];
long v[V];
#pragma xmp align a[i][j] with t(j, i)
#pragma xmp align m[i][j] with t(j, i)
#pragma xmp align v[k] with tv(k)
static int mask(int i, int j) { return (i * 31 + j * 17) % 5 < 2; }
int main(void)
{
    int nerr = 0, i, j, k, n = 0;
    long rv[V], ra[R][C];
    for (k = 0; k < V; k++) rv[k] = -7;
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++)
            if (mask(i, j)) rv[n++] = i * 100 + j;
#pragma xmp loop on t(j, i)
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++) { a[i][j] = i * 100 + j; m[i][j] = mask(i, j); }
#pragma xmp loop on tv(k)
    for (k = 0; k < V; k++) v[k] = -7;
    xmp_pack(xmp_desc_of(v), xmp_desc_of(a), xmp_desc_of(m));
#pragma xmp loop on tv(k) reduction(+:nerr)
    for (k = 0; k < V; k++) if (v[k] != rv[k]) nerr++;
    /* unpack the vector (k + 5000) into the unmasked elements, in order */
#pragma xmp loop on tv(k)
    for (k = 0; k < V; k++) v[k] = k + 5000;
#pragma xmp loop on t(j, i)
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++) m[i][j] = !mask(i, j);
    xmp_unpack(xmp_desc_of(a), xmp_desc_of(v), xmp_desc_of(m));
    n = 0;
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++) ra[i][j] = mask(i, j) ? i * 100 + j : 5000 + n++;
#pragma xmp loop on t(j, i) reduction(+:nerr)
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++) if (a[i][j] != ra[i][j]) nerr++;
    if (nerr) {
        if (xmp_node_num() == 1) printf("ERROR: %d wrong elements\n", nerr);
        exit(1);
    }
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
