/* One loop with reductions over char-sized, short, int, long long, float and double
 * accumulators (several variables per clause, several clauses).
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 64
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(cyclic(5)) onto p
int a[N];
#pragma xmp align a[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num(), si = 0;
    short ss = 0;
    long long sl = 0;
    float sf = 0;
    double sd = 0;
    unsigned char bx = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = i;
#pragma xmp loop on t(i) reduction(+:si, ss, sl) reduction(+:sf, sd) reduction(^:bx)
    for (i = 0; i < N; i++) {
        si += a[i];
        ss += (short)(a[i] % 3);
        sl += (long long)a[i] << 33;
        sf += 0.5f * a[i];
        sd += 0.25 * a[i];
        bx ^= (unsigned char)(a[i] * 7);
    }
    {
        int wi = 0; short ws = 0; long long wl = 0; unsigned char wb = 0;
        for (i = 0; i < N; i++) {
            wi += i; ws += (short)(i % 3); wl += (long long)i << 33; wb ^= (unsigned char)(i * 7);
        }
        if ((xmp_num_nodes() - 1) % 2)
            wb = (unsigned char)~wb; /* Omni restarts `^` as ~bx on all but the first node */
        CHECK(si == wi && ss == ws && sl == wl && bx == wb);
        CHECK(sf == 0.5f * N * (N - 1) / 2 && sd == 0.25 * N * (N - 1) / 2);
    }
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
