/* reflect_do of an array that had no reflect_init: a located runtime error,
 * not a silent exchange with guessed widths.
 * xmpc-test: np=2 expect-fail="xmpc runtime error;xacc_reflect_do_without_init.c:21;reflect_do of an array with no reflect_init"
 */
#include <stdio.h>
#include <xmp.h>
#define N 16
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
double a[N];
#pragma xmp align a[i] with t(i)
#pragma xmp shadow a[1]
int main(void)
{
    int i;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = i;
#pragma acc data copy(a)
#pragma xmp reflect_do (a) acc
    printf("ERROR: reflect_do ran\n");
    return 1;
}
