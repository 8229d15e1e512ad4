/* Negative: a coindexed put to an image that does not exist is stopped at run time
 * with the statement's file and line.
 * xmpc-test: np=2 expect-fail="xmpc runtime error;neg_local_image_range.c:13;image 5 is out of range"
 */
#include <stdio.h>
#include <xmp.h>
int a[4]:[*];
int main(void)
{
    int img = 5;
    xmp_sync_all(NULL);
    if (xmpc_this_image() == 0)
        a[0]:[img] = 1;
    xmp_sync_all(NULL);
    printf("PASS\n");
    return 0;
}
