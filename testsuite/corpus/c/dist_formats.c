/*
 * Distribution formats: cyclic(w), gblock(m), a non-distributed dimension (*),
 * a 2-D node set with a * dimension, and collapsed (*) align subscripts.
 *
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <xmp.h>

#define N 64
#define M 8

#pragma xmp nodes p(4)
#pragma xmp nodes p2(2, *)

int sizes[4] = {10, 30, 20, 4};

#pragma xmp template tw(0:N-1)
#pragma xmp template tg(0:N-1)
#pragma xmp template t2(0:M-1, 0:N-1)
#pragma xmp distribute tw(cyclic(4)) onto p
#pragma xmp distribute tg(gblock(sizes)) onto p
#pragma xmp distribute t2(*, block) onto p

double cw[N], cg[N];
double m2[N][M];
int rows[N][M];
#pragma xmp align cw[i] with tw(i)
#pragma xmp align cg[i] with tg(i)
#pragma xmp align m2[i][*] with t2(*, i)
#pragma xmp align rows[i][j] with t2(j, i)

#pragma xmp template tq(0:N-1, 0:N-1)
#pragma xmp distribute tq(block, block) onto p2

int main(void)
{
    int i, j, errors = 0;
    double s1 = 0, s2 = 0, s3 = 0;
    long s4 = 0;

#pragma xmp loop on tw(i)
    for (i = 0; i < N; i++)
        cw[i] = i;
#pragma xmp loop on tg(i)
    for (i = 0; i < N; i++)
        cg[i] = 2 * i;
#pragma xmp loop (i) on t2(*, i)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            m2[i][j] = i + j;
#pragma xmp loop (j, i) on t2(j, i)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            rows[i][j] = 1;

#pragma xmp loop on tw(i) reduction(+:s1)
    for (i = 0; i < N; i++)
        s1 += cw[i];
#pragma xmp loop on tg(i) reduction(+:s2)
    for (i = 0; i < N; i++)
        s2 += cg[i];
#pragma xmp loop (i) on t2(*, i) reduction(+:s3)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            s3 += m2[i][j];
#pragma xmp loop (j, i) on t2(j, i) reduction(+:s4)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            s4 += rows[i][j];

    if (s1 != N * (N - 1) / 2) errors++;
    if (s2 != N * (N - 1)) errors++;
    if (s3 != M * N * (N - 1) / 2 + N * M * (M - 1) / 2) errors++;
    if (s4 != N * M) errors++;

    if (xmp_node_num() == 1)
        printf(errors == 0 ? "PASS\n" : "ERROR: %d\n", errors);
    return errors != 0;
}
