/* barrier: node 1 computes for a while after the others reached the barrier; the
 * wall-clock time after the barrier must be >= node 1's start time + delay on every
 * node (time is broadcast with xmp_wtime, which MPICH keeps globally synchronised
 * on one host; a 10 ms margin is allowed).
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(*)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), round;
    for (round = 0; round < 3; round++) {
        double t0 = xmp_wtime(), after;
#pragma xmp bcast (t0)
        if (me == 1)
            while (xmp_wtime() - t0 < 0.05)
                ;
#pragma xmp barrier
        after = xmp_wtime();
        CHECK(after - t0 >= 0.04);
    }
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
