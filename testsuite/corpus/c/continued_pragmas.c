/*
 * Directive spelling variants: backslash-continued pragmas, "# pragma",
 * indented pragmas, trailing comments on pragma lines, a commented-out
 * directive, and OpenMP pragmas that xmpc passes through untouched.
 *
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <xmp.h>

#define N 256
#define M 32

#pragma xmp nodes p(4)
#pragma xmp template \
        t(0:N-1, \
          0:M-1)
#pragma xmp distribute t(*, \
                          block) onto p
  #  pragma   xmp   nodes q(*)   /* indented, extra blanks */

double a[M][N], b[M][N];
#pragma xmp align a[j][i] \
            with t(i, j)
#pragma xmp align b[j][i] with t(i, j) // same layout
#pragma xmp shadow a[1:1][0]

/*
#pragma xmp loop on t(i, j)
   (an old directive kept in a comment: not a directive)
*/

int main(void)
{
    int i, j, errors = 0;
    double s = 0.0, mx = -1.0;
    int imx = -1, jmx = -1;

#pragma xmp loop (i, j) \
        on t(i, j)
    for (j = 0; j < M; j++)
        for (i = 0; i < N; i++) {
            a[j][i] = (double)(i + j);
            b[j][i] = 0.0;
        }

#pragma xmp reflect (a) \
        width(1:1)
#pragma xmp loop (i, j) on t(i, j)
    for (j = 1; j < M - 1; j++)
        for (i = 0; i < N; i++)
            b[j][i] = a[j - 1][i] + a[j + 1][i];

#pragma xmp loop (i, j) on t(i, j) \
        reduction(+:s) \
        reduction(max:mx/imx, jmx/)
    for (j = 0; j < M; j++)
        for (i = 0; i < N; i++) {
            s += b[j][i];
            if (b[j][i] > mx) {
                mx = b[j][i];
                imx = i;
                jmx = j;
            }
        }

    /* b[j][i] = 2(i+j) for 1 <= j <= M-2 */
    if (mx != 2.0 * ((N - 1) + (M - 2)) || imx != N - 1 || jmx != M - 2)
        errors++;
    if (s != 2.0 * ((double)(M - 2) * N * (N - 1) / 2 + (double)N * ((M - 2) * (M - 1) / 2 - 0)))
        errors++;

#pragma omp parallel for reduction(+:errors)
    for (i = 0; i < 4; i++)
        errors += 0;

    # pragma xmp barrier
    if (xmp_node_num() == 1)
        printf(errors == 0 ? "PASS\n" : "ERROR\n");
    return errors != 0;
}
