#include <stdio.h>
/* “ú–{Œê */
#pragma xmp nodes p(2)
#pragma xmp bogus
int main(void) { printf("ÆüËÜ\n"); return 0; }
