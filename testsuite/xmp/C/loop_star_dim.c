/* A loop level over a template dimension that is not distributed (`*`) keeps the
 * bounds written in the source when a level around it runs over a distributed one
 * (passes/src/xmp_model/loop_sched.rs, `keeps_own_bounds`): checked here that every
 * iteration still runs exactly once over all nodes (literal, run-time and downward
 * bounds, a step, an aligned offset), and that a process outside the template's node
 * set runs none (t2 onto q = p(1:1): the enclosing block level is empty there).
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define NX 9
#define NY 12
#pragma xmp nodes p(*)
#pragma xmp nodes q(1) = p(1:1)
#pragma xmp template t(0:NX-1, 0:NY-1)
#pragma xmp distribute t(*, block) onto p
#pragma xmp template t2(0:NX, 0:NY-1)
#pragma xmp distribute t2(*, block) onto q
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(int argc, char **argv)
{
    int i, j, me = xmp_node_num();
    int hi = NX - 2 + (argc > 99); /* a bound the compiler cannot know */
    long c1 = 0, s1 = 0, c2 = 0, s2 = 0, c3 = 0, s3 = 0, c4 = 0;
#pragma xmp loop (i, j) on t(i, j) reduction(+:c1, s1)
    for (j = 0; j < NY; j++)
        for (i = 1; i < NX - 1; i++) {
            c1++;
            s1 += 100 * j + i;
        }
#pragma xmp loop (i, j) on t(i, j) reduction(+:c2, s2)
    for (j = 1; j < NY - 1; j++)
        for (i = hi; i >= 0; i -= 2) {
            c2++;
            s2 += 100 * j + i;
        }
    /* i + 1 on t2: template index 1..NX-1 for i = 0..NX-2 */
#pragma xmp loop (i, j) on t2(i + 1, j) reduction(+:c3, s3)
    for (j = 0; j < NY; j++)
        for (i = 0; i <= NX - 2; i++) {
            c3++;
            s3 += 100 * j + i;
        }
    /* only q's node runs t2's iterations */
#pragma xmp loop (i, j) on t2(i, j)
    for (j = 0; j < NY; j++)
        for (i = 0; i <= NX; i++)
            c4++;
    long w1 = 0, w2 = 0, w3 = 0;
    for (j = 0; j < NY; j++)
        for (i = 1; i < NX - 1; i++)
            w1 += 100 * j + i;
    for (j = 1; j < NY - 1; j++)
        for (i = NX - 2; i >= 0; i -= 2)
            w2 += 100 * j + i;
    for (j = 0; j < NY; j++)
        for (i = 0; i <= NX - 2; i++)
            w3 += 100 * j + i;
    CHECK(c1 == (long)NY * (NX - 2) && s1 == w1);
    CHECK(c2 == (long)(NY - 2) * ((NX - 2) / 2 + 1) && s2 == w2);
    CHECK(c4 == (me == 1 ? (long)NY * (NX + 1) : 0));
    /* t2's loop reduction ran on q alone: the others kept 0, so a sum over all nodes
     * counts every iteration once only if nobody else ran any */
#pragma xmp reduction(+:c3, s3)
    CHECK(c3 == (long)NY * (NX - 1) && s3 == w3);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
