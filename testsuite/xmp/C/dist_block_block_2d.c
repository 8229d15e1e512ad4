/* distribute t(block, block) onto a 2-D node set p(2,*); 2-D arrays in C order
 * aligned a[j][i] with t(i, j). Owners and a weighted checksum are checked.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define NX 20
#define NY 14
#pragma xmp nodes p(2,*)
#pragma xmp template t(0:NX-1, 0:NY-1)
#pragma xmp distribute t(block, block) onto p
double a[NY][NX];
#pragma xmp align a[j][i] with t(i, j)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j, me = xmp_node_num() - 1, q = xmp_num_nodes() / 2, cnt = 0;
    int cy = (NY + q - 1) / q;
    double s = 0, want = 0;
#pragma xmp loop (i, j) on t(i, j) reduction(+:cnt)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++) {
            CHECK(i / 10 + 2 * (j / cy) == me);
            a[j][i] = i * 100 + j;
            cnt++;
        }
#pragma xmp loop (i, j) on t(i, j) reduction(+:s)
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            s += a[j][i] * ((i + 3 * j) % 5);
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            want += (i * 100 + j) * ((i + 3 * j) % 5);
    CHECK(cnt == NX * NY);
    CHECK(s == want);
    if (nerr) exit(1);
    if (me == 0) printf("PASS\n");
    return 0;
}
