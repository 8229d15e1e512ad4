/* Square spelling of a 2-D halo exchange: template t[NY][NX], distribute
 * t[block][block] onto p[2][2], align a[j][i] with t[j][i], shadow a[1][1].
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define NX 16
#define NY 20
#pragma xmp nodes p[2][2]
#pragma xmp template t[NY][NX]
#pragma xmp distribute t[block][block] onto p
double a[NY][NX];
#pragma xmp align a[j][i] with t[j][i]
#pragma xmp shadow a[1][1]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
static double f(int i, int j) { return i * 0.5 + j * 100; }
int main(void)
{
    int i, j;
    double s = 0, want = 0;
#pragma xmp loop (j, i) on t[j][i]
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            a[j][i] = f(i, j);
#pragma xmp reflect (a)
#pragma xmp loop (j, i) on t[j][i] reduction(+:s)
    for (j = 1; j < NY - 1; j++)
        for (i = 1; i < NX - 1; i++) {
            CHECK(a[j][i - 1] == f(i - 1, j) && a[j][i + 1] == f(i + 1, j));
            CHECK(a[j - 1][i] == f(i, j - 1) && a[j + 1][i] == f(i, j + 1));
            s += a[j][i - 1] * a[j + 1][i] - a[j][i + 1] * a[j - 1][i];
        }
    for (j = 1; j < NY - 1; j++)
        for (i = 1; i < NX - 1; i++)
            want += f(i - 1, j) * f(i, j + 1) - f(i + 1, j) * f(i, j - 1);
    CHECK(s == want);
    if (nerr) exit(1);
#pragma xmp task on p[0][0]
    printf("PASS\n");
    return 0;
}
