/* tasks { task on p(1:2) {...} task on p(3:4) {...} }: two task blocks with
 * their own reductions and a loop over a template distributed onto each half.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 40
#pragma xmp nodes p(4)
#pragma xmp nodes lo(2) = p(1:2)
#pragma xmp nodes hi(2) = p(3:4)
#pragma xmp template tl(0:N-1)
#pragma xmp template th(0:N-1)
#pragma xmp distribute tl(block) onto lo
#pragma xmp distribute th(cyclic) onto hi
int a[N], b[N];
#pragma xmp align a[i] with tl(i)
#pragma xmp align b[i] with th(i)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, me = xmp_node_num();
    long s = -1, t = -1;
#pragma xmp tasks
    {
#pragma xmp task on p(1:2)
        {
            s = 0;
#pragma xmp loop on tl(i)
            for (i = 0; i < N; i++) a[i] = i;
#pragma xmp loop on tl(i) reduction(+:s)
            for (i = 0; i < N; i++) s += a[i];
        }
#pragma xmp task on p(3:4)
        {
            t = 0;
#pragma xmp loop on th(i)
            for (i = 0; i < N; i++) b[i] = 2 * i;
#pragma xmp loop on th(i) reduction(+:t)
            for (i = 0; i < N; i++) t += b[i];
        }
    }
    if (me <= 2) CHECK(s == N * (N - 1) / 2 && t == -1);
    else CHECK(t == N * (N - 1) && s == -1);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
