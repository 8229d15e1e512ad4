/* Shared by the ABI tests: CHECK counts failures; finish() sums them over all
 * nodes, prints PASS or ERROR from node 1 and returns the exit status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xmpc_rt.h"
#include "xmp.h"

static const xmpc_loc L = {__FILE__, 1, "test"};
static int fails;
#define CHECK(c)                                                                              \
  do {                                                                                        \
    if (!(c)) {                                                                               \
      fprintf(stderr, "[node %d] %s:%d: CHECK failed: %s\n", xmp_all_node_num(), __FILE__,   \
              __LINE__, #c);                                                                  \
      fails++;                                                                                \
    }                                                                                         \
  } while (0)

static int finish(void) {
  int f = fails;
  xmpc_reduction(&L, &f, 1, XMPC_TYPE_INT, XMPC_OP_SUM, NULL);
  if (xmp_all_node_num() == 1) printf(f ? "ERROR\n" : "PASS\n");
  return xmpc_finalize(f ? 1 : 0);
}

static xmpc_nodes *nodes1(long n) { return xmpc_nodes_new(&L, 1, &n); }

static xmpc_template *tmpl1(long lo, long hi, xmpc_nodes *p, int fmt, long arg, const long *map) {
  xmpc_template *t = xmpc_template_new(&L, 1, &lo, &hi, 1);
  const long *maps[1] = {map};
  xmpc_distribute(&L, t, p, &fmt, &arg, maps);
  return t;
}
