/* nodes p(2,*): the last dimension takes what is left (np/2).
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 24
#pragma xmp nodes p(2,*)
#pragma xmp template t(0:N-1, 0:N-1)
#pragma xmp distribute t(block, block) onto p
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j, np = xmp_num_nodes(), q = np / 2, me = xmp_node_num();
    int pi = (me - 1) % 2, pj = (me - 1) / 2, cnt = 0;
    int ci = N / 2, cj = (N + q - 1) / q;
#pragma xmp loop (i, j) on t(i, j) reduction(+:cnt)
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++) {
            CHECK(i / ci == pi && j / cj == pj);
            cnt++;
        }
    CHECK(cnt == N * N);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
