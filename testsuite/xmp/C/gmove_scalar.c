/* gmove of single elements: x = a[k] (owner to every node), a[k] = y (every node
 * holds y, the owner stores it), and b[j] = a[k] between two distributed arrays.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 50
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp template tc(0:N-1)
#pragma xmp distribute t(block) onto p
#pragma xmp distribute tc(cyclic) onto p
int a[N], b[N];
#pragma xmp align a[i] with t(i)
#pragma xmp align b[i] with tc(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, k, me = xmp_node_num(), x, y = 4242;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++) a[i] = i * i;
#pragma xmp loop on tc(i)
    for (i = 0; i < N; i++) b[i] = 0;
    for (k = 0; k < N; k += 7) {
        x = -1;
#pragma xmp gmove
        x = a[k];
        CHECK(x == k * k);
    }
#pragma xmp gmove
    a[N - 1] = y;
#pragma xmp gmove
    b[3] = a[N - 1];
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        CHECK(a[i] == (i == N - 1 ? 4242 : i * i));
#pragma xmp loop on tc(i)
    for (i = 0; i < N; i++)
        CHECK(b[i] == (i == 3 ? 4242 : 0));
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
