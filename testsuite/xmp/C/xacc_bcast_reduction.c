/* XcalableACC bcast ... acc and reduction ... acc on values held on the device:
 * a scalar and a plain array broadcast from the last node into data present on
 * the device, then sum/max/min reductions of values computed in OpenACC loops.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <xmp.h>
#define N 30
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
double w[N];
#pragma xmp align w[i] with t(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d node %d: %s\n", __LINE__, xmp_node_num(), #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num(), np = xmp_num_nodes();
    long key = me * 11;
    int coef[4] = {me, me + 1, me + 2, me + 3};
    double s = 0.0, mx = -1e30, mn = 1e30;
    long cnt = 0;
#pragma acc data copy(key, coef, w)
    {
#pragma xmp bcast (key, coef) from p(np) acc
#pragma acc parallel loop present(coef)
        for (i = 0; i < 4; i++)
            coef[i] *= 2;
#pragma xmp loop on t(i)
#pragma acc parallel loop present(w)
        for (i = 0; i < N; i++)
            w[i] = (i % 7) - 3.0 + 0.5 * i;
#pragma xmp loop on t(i)
#pragma acc parallel loop reduction(+:s, cnt) reduction(max:mx) reduction(min:mn) present(w)
        for (i = 0; i < N; i++) {
            s += w[i];
            cnt++;
            mx = w[i] > mx ? w[i] : mx;
            mn = w[i] < mn ? w[i] : mn;
        }
#pragma xmp reduction (+:s, cnt) acc
#pragma xmp reduction (max:mx) acc
#pragma xmp reduction (min:mn) acc
    }
    double rs = 0.0, rmx = -1e30, rmn = 1e30;
    for (i = 0; i < N; i++) {
        double v = (i % 7) - 3.0 + 0.5 * i;
        rs += v;
        rmx = v > rmx ? v : rmx;
        rmn = v < rmn ? v : rmn;
    }
    CHECK(key == np * 11);
    for (i = 0; i < 4; i++)
        CHECK(coef[i] == 2 * (np + i));
    CHECK(s == rs);
    CHECK(cnt == N);
    CHECK(mx == rmx);
    CHECK(mn == rmn);
#pragma xmp reduction (+:nerr)
    if (me == 1)
        printf(nerr == 0 ? "PASS\n" : "ERROR %d\n", nerr);
    return nerr != 0;
}
