/* gmove between a distributed array and a local pointer (`malloc`ed; Omni's
 * gmove/141_gmove): the section gives the pointer side's extent.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 20
#pragma xmp nodes p[*]
#pragma xmp template t[N]
#pragma xmp distribute t[block] onto p
int a[N];
#pragma xmp align a[i] with t[i]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int *lp = malloc(sizeof(int) * N), *lq = malloc(sizeof(int) * N);
    int i;
#pragma xmp loop on t[i]
    for (i = 0; i < N; i++)
        a[i] = 3 * i + 1;
    for (i = 0; i < N; i++)
        lp[i] = lq[i] = -1;
#pragma xmp gmove
    lp[0:N] = a[0:N];
    for (i = 0; i < N; i++)
        CHECK(lp[i] == 3 * i + 1);
#pragma xmp gmove
    lq[2:5:3] = a[1:5:2];   /* lq[2], lq[5], ..., lq[14] = a[1], a[3], ..., a[9] */
    for (i = 0; i < N; i++)
        CHECK(lq[i] == (i >= 2 && i <= 14 && (i - 2) % 3 == 0 ? 3 * (1 + 2 * ((i - 2) / 3)) + 1 : -1));
    for (i = 0; i < N; i++)
        lp[i] = 100 + i;
#pragma xmp gmove
    a[5:10] = lp[0:10];
#pragma xmp loop on t[i]
    for (i = 0; i < N; i++)
        CHECK(a[i] == (i >= 5 && i < 15 ? 100 + i - 5 : 3 * i + 1));
    free(lp);
    free(lq);
    if (nerr) exit(1);
    if (xmp_node_num() == 1) printf("PASS\n");
    return 0;
}
