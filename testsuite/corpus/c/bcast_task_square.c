/*
 * bcast, barrier and task on node subsets in the square syntax
 * (nodes numbered from 0, p[1:2] = two nodes starting at node 1).
 *
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <xmp.h>

#pragma xmp nodes p[4]

int main(void)
{
    int root = 0, mid = 0, count = 0, errors = 0;
    double x = 0.0, params[3] = {0.0, 0.0, 0.0};

#pragma xmp task on p[0]
    root = 1;

#pragma xmp task on p[0]
    {
        x = 3.25;
        params[0] = 1.0;
        params[1] = 2.0;
        params[2] = 4.0;
    }
#pragma xmp bcast (x, params) from p[0]

    if (x != 3.25 || params[0] + params[1] + params[2] != 7.0)
        errors++;

#pragma xmp barrier

#pragma xmp task on p[1:2]
    {
        mid = 1;
        count = 1;
#pragma xmp barrier on p[1:2]
    }
#pragma xmp reduction (+:count)
    if (count != 2)
        errors++;

    /* a value set on the last node reaches every node */
#pragma xmp task on p[3]
    x = -1.0;
#pragma xmp bcast (x) from p[3]
    if (x != -1.0)
        errors++;

#pragma xmp reduction (+:errors)
    if (root) {
        if (errors == 0)
            printf("PASS\n");
        else
            printf("ERROR: %d failures (mid=%d)\n", errors, mid);
    }
    return errors != 0;
}
