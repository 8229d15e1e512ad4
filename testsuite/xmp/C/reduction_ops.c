/* The standalone reduction directive with every operator on per-node values
 * derived from the node number: + * - & | ^ && || max min.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(*)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), P = xmp_num_nodes(), k;
    long sum = me, prod = me + 1, sub = me;
    unsigned band = ~(1u << me), bor = 1u << me, bxor = 3u * me + 1;
    int land = me != 3, lor = me == P;
    double mx = 1.0 / me, mn = me * 2.5;
    long wsum = 0, wprod = 1, wsub = 0;
    unsigned wband = ~0u, wbor = 0, wbxor = 0;
    int wland = 1, wlor = 0;
#pragma xmp reduction(+:sum)
#pragma xmp reduction(*:prod)
#pragma xmp reduction(-:sub)
#pragma xmp reduction(&:band) reduction(|:bor)
#pragma xmp reduction(^:bxor)
#pragma xmp reduction(&&:land)
#pragma xmp reduction(||:lor)
#pragma xmp reduction(max:mx) reduction(min:mn)
    for (k = 1; k <= P; k++) {
        wsum += k; wprod *= k + 1; wsub += k;
        wband &= ~(1u << k); wbor |= 1u << k; wbxor ^= 3u * k + 1;
        wland = wland && k != 3; wlor = wlor || k == P;
    }
    CHECK(sum == wsum && prod == wprod && sub == wsub);
    CHECK(band == wband && bor == wbor && bxor == wbxor);
    CHECK(land == wland && lor == wlor);
    CHECK(mx == 1.0 && mn == 2.5);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
