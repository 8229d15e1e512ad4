/* A compute burst is what runs between two MPI calls, as SMPI measures it:
 * compute-block boundaries (BSIM_Block_begin/end) and a timed block's
 * BSIM_Add_time inside it do not end it. argv[1]: milliseconds of CPU per
 * piece. Phase 1: kept code, a block, BSIM_Add_time(0), kept code (three
 * pieces, one burst) then a Barrier; phase 2: one piece, Barrier, one piece,
 * Barrier (two bursts). Prints "rank R burst T1 split T2" (virtual seconds
 * charged in each phase). */
#include <lmpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static volatile double sink;
static void burn(double ms) {
    double t0 = cpu(), x = 0;
    while (cpu() - t0 < ms * 1e-3)
        for (int i = 0; i < 1000; i++) x += i * 1e-9;
    sink = x;
}

int bsim_main(int argc, char **argv) {
    double ms = argc > 1 ? atof(argv[1]) : 0;
    LMPI_Init(&argc, &argv);
    int r;
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Barrier(LMPI_COMM_WORLD);
    double t0 = LMPI_Wtime();
    burn(ms);
    BSIM_Block_begin(1);
    burn(ms);
    BSIM_Block_end(1);
    BSIM_Add_time(0);
    burn(ms);
    LMPI_Barrier(LMPI_COMM_WORLD);
    double t1 = LMPI_Wtime();
    burn(ms);
    LMPI_Barrier(LMPI_COMM_WORLD);
    burn(ms);
    LMPI_Barrier(LMPI_COMM_WORLD);
    double t2 = LMPI_Wtime();
    printf("rank %d burst %.9f split %.9f\n", r, t1 - t0, t2 - t1);
    LMPI_Finalize();
    return 0;
}
