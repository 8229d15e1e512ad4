/* Loop ranges that leave the template (Omni's behaviour, docs/omni-compat.md): an index
 * outside the template belongs to no node and its iteration is skipped; a range partly
 * outside runs the indices inside on their owners, on the loop's step grid. XcalableACC's
 * reflect_acc_2 writes a ghost row with such a loop on the first node.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 16
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(int argc, char **argv)
{
    int i, me = xmp_node_num();
    int lo = -1 - (argc > 99); /* bounds the compiler cannot know */
    long c1 = 0, c2 = 0, s2 = 0, c3 = 0, s3 = 0;
#pragma xmp loop (i) on t(i) reduction(+:c1)
    for (i = lo; i < lo + 1; i++)
        c1++;
#pragma xmp loop (i) on t(i) reduction(+:c2, s2)
    for (i = lo - 4; i < N + 5; i += 3) {
        c2++;
        s2 += i;
    }
#pragma xmp loop (i) on t(i) reduction(+:c3, s3)
    for (i = N + 3; i >= -3; i--) {
        c3++;
        s3 += i;
    }
    long w2 = 0, n2 = 0;
    for (i = -5; i < N + 5; i += 3)
        if (i >= 0 && i < N) {
            n2++;
            w2 += i;
        }
    CHECK(c1 == 0);
    CHECK(c2 == n2 && s2 == w2);
    CHECK(c3 == N && s3 == (long)N * (N - 1) / 2);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
