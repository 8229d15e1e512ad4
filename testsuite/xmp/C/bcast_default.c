/* bcast (x, arr) with no from clause: the first executing node's values reach all.
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
    int me = xmp_node_num(), k;
    double x = me * 1.5;
    long arr[10];
    for (k = 0; k < 10; k++) arr[k] = me * 100 + k;
#pragma xmp bcast (x, arr)
    CHECK(x == 1.5);
    for (k = 0; k < 10; k++) CHECK(arr[k] == 100 + k);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
