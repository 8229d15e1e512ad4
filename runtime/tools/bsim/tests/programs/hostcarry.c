/* Host time, nested blocks, BSIM_Carry and per-rank collective buffers.
 * argv[1]: milliseconds of CPU each rank burns between Init and the first
 * call (no BSIM_Add_time: kept code that runs in the skeleton), inside a block
 * that calls a function with a block of its own (blocks nest across calls).
 * Then rank 0 broadcasts a parameter with BSIM_Carry(3) (no payload mode:
 * the value must still arrive), and every rank allreduces an array kept in a
 * per-rank variable (BSIM_RANK_VAR: under contexts the last member reads the
 * others' copies from their images). Prints "rank R n N sum S ok|WRONG". */
#include <lmpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
BSIM_RANK_VAR static int part[3];
BSIM_RANK_VAR static int total[3];

static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static volatile double sink;
static void inner(double ms) {
    BSIM_Block_begin(2);
    double t0 = cpu(), x = 0;
    while (cpu() - t0 < ms * 1e-3)
        for (int i = 0; i < 1000; i++) x += i * 1e-9;
    sink = x;
    BSIM_Block_end(2);
}

int bsim_main(int argc, char **argv) {
    double ms = argc > 1 ? atof(argv[1]) : 0;
    LMPI_Init(&argc, &argv);
    int r, np;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm_size(LMPI_COMM_WORLD, &np);
    BSIM_Block_begin(1);
    inner(ms);
    BSIM_Block_end(1);
    int n = r == 0 ? 42 : -1;
    BSIM_Carry(3);
    LMPI_Bcast(&n, 1, LMPI_INT, 0, LMPI_COMM_WORLD);
    for (int i = 0; i < 3; i++) part[i] = r + i;
    BSIM_Carry(3);
    LMPI_Allreduce(part, total, 3, LMPI_INT, LMPI_SUM, LMPI_COMM_WORLD);
    int want = np * (np - 1) / 2;
    int ok = n == 42 && total[0] == want && total[2] == want + 2 * np;
    printf("rank %d n %d sum %d %s\n", r, n, total[0], ok ? "ok" : "WRONG");
    LMPI_Finalize();
    return 0;
}
