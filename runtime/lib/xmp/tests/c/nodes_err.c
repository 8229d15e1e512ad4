/* nodes p(3) on a different number of processes: a located runtime error. */
#include "check.h"

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  static const xmpc_loc here = {"prog.c", 7, "nodes p(3)"};
  long three = 3;
  xmpc_nodes_new(&here, 1, &three);
  if (xmp_num_nodes() == 3) printf("PASS\n");
  return xmpc_finalize(0);
}
