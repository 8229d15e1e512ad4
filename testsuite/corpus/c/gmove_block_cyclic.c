/*
 * gmove between a block-distributed and a cyclic-distributed array, whole
 * arrays and sections (C array-section syntax a[start:length]).
 *
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <xmp.h>

#define N 64

#pragma xmp nodes p(4)
#pragma xmp template tb(0:N-1)
#pragma xmp template tc(0:N-1)
#pragma xmp distribute tb(block) onto p
#pragma xmp distribute tc(cyclic) onto p

int a[N], b[N];
#pragma xmp align a[i] with tb(i)
#pragma xmp align b[i] with tc(i)

int main(void)
{
    int i, errors = 0;

#pragma xmp loop on tb(i)
    for (i = 0; i < N; i++)
        a[i] = 3 * i + 1;
#pragma xmp loop on tc(i)
    for (i = 0; i < N; i++)
        b[i] = -1;

    /* all of a into b: block to cyclic */
#pragma xmp gmove
    b[:] = a[:];

#pragma xmp loop on tc(i) reduction(+:errors)
    for (i = 0; i < N; i++)
        if (b[i] != 3 * i + 1)
            errors++;

    /* a section: b[8..23] into a[0..15] */
#pragma xmp gmove
    a[0:16] = b[8:16];

#pragma xmp loop on tb(i) reduction(+:errors)
    for (i = 0; i < N; i++) {
        int want = i < 16 ? 3 * (i + 8) + 1 : 3 * i + 1;
        if (a[i] != want)
            errors++;
    }

    /* a scalar element to everyone */
    {
        int x = 0;
#pragma xmp gmove
        x = a[N - 1];
        if (x != 3 * (N - 1) + 1)
            errors++;
    }
#pragma xmp reduction (+:errors)

    if (xmp_node_num() == 1)
        printf(errors == 0 ? "PASS\n" : "ERROR\n");
    return errors != 0;
}
