/* loop reduction(^:r): bitwise xor (unsigned).
 * The value is recomputed sequentially on every node with plain C.
 * Omni's C translator restarts `r` as `~r` on every node but the first before the
 * loop (docs/omni-compat.md), so with an even number of nodes the result is the
 * complement of the sequential one; xmpc does the same.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 100
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
int a[N];
#pragma xmp align a[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static int f(int i) { return (i * 37 + 11) % 101; }
#define UPDATE(R, X) R ^= (unsigned)(X) * 2654435761u
int main(void)
{
    int i, me = xmp_node_num();
    unsigned r = 0u, w = 0u;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = f(i);
#pragma xmp loop on t(i) reduction(^:r)
    for (i = 0; i < N; i++)
        UPDATE(r, a[i]);
    for (i = 0; i < N; i++)
        UPDATE(w, f(i));
    if ((xmp_num_nodes() - 1) % 2)
        w = ~w;
    CHECK(r == w);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
