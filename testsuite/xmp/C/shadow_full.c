/* shadow a[*] (full shadow): reflect is an all-gather, after which every node can
 * read every element of the array inside a loop body.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 30
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
int a[N];
#pragma xmp align a[i] with t(i)
#pragma xmp shadow a[*]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j, me = xmp_node_num();
    long s = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = 2 * i + 1;
#pragma xmp reflect (a)
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 0; i < N; i++) {
        long row = 0;
        for (j = 0; j < N; j++)
            row += a[j];
        CHECK(row == (long)N * N);
        s += row * a[i];
    }
    CHECK(s == (long)N * N * N * N);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
