/* xmp_exit(0) ends the program on every node with status 0 (after PASS); code after
 * it must not run (a later exit(1) would fail the test).
 * xmpc-test: np=1,2
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(*)
int main(void)
{
    int me = xmp_node_num();
#pragma xmp barrier
    if (me == 1) {
        printf("PASS\n");
        fflush(stdout);
    }
    xmp_exit(0);
    printf("ERROR: returned from xmp_exit\n");
    exit(1);
}
