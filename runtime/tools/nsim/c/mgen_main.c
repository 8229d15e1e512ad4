/* The process entry point of an MGEN program: hands MGEN_Main to the simulator. */
#include "mgen.h"

int main(int argc, char **argv) { return mgen_run(argc, argv, MGEN_Main); }
