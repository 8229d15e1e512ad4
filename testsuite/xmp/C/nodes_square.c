/* Square spelling: nodes p[2][2] is p(2,2) with dimensions reversed; p[j][i]
 * names round p(i+1, j+1). Checked through tasks and a [block][block] template.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 8
#pragma xmp nodes p[2][2]
#pragma xmp nodes pr(2,2) = p
#pragma xmp template t[N][N]
#pragma xmp distribute t[block][block] onto p
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int i, j, sq = -1, rd = -2, cnt = 0, ci = -1, cj = -1;
#pragma xmp task on p[0][1]
    sq = 1;
#pragma xmp task on pr(2,1)
    rd = 1;
#pragma xmp task on p[1][0]
    sq = 2;
#pragma xmp task on pr(1,2)
    rd = 2;
#pragma xmp task on p[0][0]
    { sq = 0; rd = 0; }
#pragma xmp task on p[1][1]
    { sq = 3; rd = 3; }
    CHECK(sq == rd);
    /* t[i][j]: i is the slow (row) index, split across p's first square dim */
#pragma xmp loop (i, j) on t[i][j] reduction(+:cnt)
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            if (ci < 0) { ci = i / (N / 2); cj = j / (N / 2); }
            CHECK(ci == i / (N / 2) && cj == j / (N / 2));
            cnt++;
        }
    CHECK(cnt == N * N);
    /* round p(a,b) = square p[b-1][a-1]; the node p[ci][cj] is round (cj+1, ci+1),
       whose number is cj + 2*ci (0-based) */
    CHECK(sq == cj + 2 * ci);
    if (nerr) exit(1);
#pragma xmp task on p[0][0]
    printf("PASS\n");
    return 0;
}
