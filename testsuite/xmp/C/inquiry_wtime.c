/* xmp_wtime is monotonic and advances by a measured busy wait of about 20 ms;
 * xmp_wtick is positive and below 1 ms.
 * xmpc-test: np=1,2
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <xmp.h>
#pragma xmp nodes p(*)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
int main(void)
{
    int me = xmp_node_num();
    double t0 = xmp_wtime(), c0 = now(), t1, c1, prev = t0, x;
    int k;
    for (k = 0; k < 1000; k++) {
        x = xmp_wtime();
        CHECK(x >= prev);
        prev = x;
    }
    while (now() - c0 < 0.02)
        ;
    t1 = xmp_wtime();
    c1 = now();
    CHECK(t1 - t0 >= 0.019);
    CHECK(t1 - t0 <= (c1 - c0) + 0.005);
    CHECK(xmp_wtick() > 0 && xmp_wtick() < 1e-3);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
