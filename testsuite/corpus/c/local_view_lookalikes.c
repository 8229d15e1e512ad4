/* Plain C with text that only looks like XMP/C local-view syntax (issue 37: the driver
 * once added #include "xmpc_coarray.h" to such files). It must come out byte for byte.
 *    0.80      11-07-27  : [NEW] a header line like NICAM-DC-MINI's fio.c
 */
#include <stdio.h>

/* GFALL: [0    ] START OF EXECUTION (FFB-MINI's gfall.c) */
#define COINDEXED(x) x:[1]
#define LOCK_WORD lock

static int f(void) { puts("[a]:[b]"); return 0; }

static void range(unsigned long s, unsigned long e)
{
  printf("range: [0x%lx-0x%lx] too big\n", s, e); // a: [b]
}

static int pick(int c, const int *a)
{
  char colon = ':', open = '[';
  const char *joined = "x" ":[" "1]";
  (void)joined;
  return c ? a[0] : colon + open;
}

int main(void)
{
  int a[2] = {1, 2};
  range(0, 1);
  return f() + pick(1, a) - 1;
}
