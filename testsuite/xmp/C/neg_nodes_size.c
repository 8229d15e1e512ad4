/* Negative: nodes p(4) run on 2 processes must stop with a runtime error that
 * names both sizes (4 and 2) and a non-zero status.
 * xmpc-test: np=2 expect-fail="xmpc runtime error: ;neg_nodes_size.c:7:;4;2"
 */
#include <stdio.h>
#include <xmp.h>
#pragma xmp nodes p(4)
int main(void)
{
    printf("PASS\n");
    return 0;
}
