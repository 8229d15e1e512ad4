/*
 * tasks / task on node subsets (round syntax, nodes numbered from 1) and a
 * node set declared as a subset of another: q(2) = p(3:4).
 *
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <xmp.h>

#define N 100

#pragma xmp nodes p(4)
#pragma xmp nodes q(2) = p(3:4)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto q

int v[N];
#pragma xmp align v[i] with t(i)

int main(void)
{
    int i, lo = 0, hi = 0, s = 0, errors = 0;

#pragma xmp tasks
    {
#pragma xmp task on p(1:2)
        {
            lo = 10;
#pragma xmp reduction (+:lo) on p(1:2)
        }
#pragma xmp task on p(3:4)
        {
            hi = 20;
#pragma xmp reduction (+:hi) on p(3:4)
        }
    }

#pragma xmp task on q
    {
#pragma xmp loop on t(i)
        for (i = 0; i < N; i++)
            v[i] = i;
#pragma xmp loop on t(i) reduction(+:s)
        for (i = 0; i < N; i++)
            s += v[i];
        if (s != N * (N - 1) / 2)
            errors++;
    }

    if (xmp_node_num() <= 2 && lo != 20)
        errors++;
    if (xmp_node_num() > 2 && hi != 40)
        errors++;

#pragma xmp reduction (+:errors)
#pragma xmp task on p(1)
    printf(errors == 0 ? "PASS\n" : "ERROR\n");
    return errors != 0;
}
