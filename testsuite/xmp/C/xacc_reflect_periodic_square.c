/* XcalableACC, square spelling, 1-D: a periodic halo of width 2 on device data,
 * once with reflect (a) width(/periodic/2) acc and many times with
 * reflect_init (b) width(/periodic/1) acc + reflect_do (b) acc (a narrower width
 * than the declared shadow: the outer shadow element must keep its old value).
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <xmp.h>
#define N 24
#pragma xmp nodes p[*]
#pragma xmp template t[N]
#pragma xmp distribute t[block] onto p
int a[N], b[N];
#pragma xmp align a[i] with t[i]
#pragma xmp align b[i] with t[i]
#pragma xmp shadow a[2]
#pragma xmp shadow b[2]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d node %d: %s\n", __LINE__, xmp_node_num(), #c); } } while (0)
int main(void)
{
    int i, it;
#pragma xmp loop on t[i]
    for (i = 0; i < N; i++) {
        a[i] = 100 + i;
        b[i] = -7;
    }
#pragma acc data copy(a, b)
    {
#pragma xmp reflect (a) width(/periodic/2) acc
#pragma xmp reflect_init (b) width(/periodic/1) acc
        for (it = 1; it <= 3; it++) {
#pragma xmp loop on t[i]
#pragma acc parallel loop
            for (i = 0; i < N; i++)
                b[i] = it * 1000 + i;
#pragma xmp reflect_do (b) acc
#pragma xmp loop on t[i]
#pragma acc parallel loop reduction(+:nerr)
            for (i = 0; i < N; i++) {
                /* width 2, periodic: the two neighbours each side */
                nerr += a[i - 1] != 100 + (i - 1 + N) % N;
                nerr += a[i - 2] != 100 + (i - 2 + N) % N;
                nerr += a[i + 1] != 100 + (i + 1) % N;
                nerr += a[i + 2] != 100 + (i + 2) % N;
                nerr += b[i - 1] != it * 1000 + (i - 1 + N) % N;
                nerr += b[i + 1] != it * 1000 + (i + 1) % N;
            }
        }
    }
#pragma xmp reduction (+:nerr)
    if (xmp_node_num() == 1)
        printf(nerr == 0 ? "PASS\n" : "ERROR %d\n", nerr);
    return nerr != 0;
}
