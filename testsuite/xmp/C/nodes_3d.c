/* nodes p(2,2,2) on 8 processes: a 3-D node grid and a (block,block,block)
 * template; every iteration runs once, on the node the closed form names.
 * xmpc-test: np=8
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 8
#pragma xmp nodes p(2,2,2)
#pragma xmp template t(0:N-1, 0:N-1, 0:N-1)
#pragma xmp distribute t(block, block, block) onto p
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j, k, me = xmp_node_num() - 1;
    long cnt = 0, sum = 0;
#pragma xmp loop (i, j, k) on t(i, j, k) reduction(+:cnt, sum)
    for (k = 0; k < N; k++)
        for (j = 0; j < N; j++)
            for (i = 0; i < N; i++) {
                CHECK(i / 4 + 2 * (j / 4) + 4 * (k / 4) == me);
                cnt++;
                sum += i + N * j + N * N * k;
            }
    CHECK(cnt == N * N * N);
    CHECK(sum == (long)N * N * N * (N * N * N - 1) / 2);
    if (nerr) exit(1);
    if (me == 0) printf("PASS\n");
    return 0;
}
