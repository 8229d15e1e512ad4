/* reduction(+:v) on a whole array and reduction(max:m) on another: element-wise.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define K 17
#pragma xmp nodes p(*)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), P = xmp_num_nodes(), k;
    double v[K];
    int m[K];
    for (k = 0; k < K; k++) {
        v[k] = me * (k + 1);
        m[k] = (me * 7 + k) % 5;
    }
#pragma xmp reduction(+:v) reduction(max:m)
    for (k = 0; k < K; k++) {
        int q, w = 0;
        for (q = 1; q <= P; q++) w = (q * 7 + k) % 5 > w ? (q * 7 + k) % 5 : w;
        CHECK(v[k] == (double)(k + 1) * P * (P + 1) / 2);
        CHECK(m[k] == w);
    }
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
