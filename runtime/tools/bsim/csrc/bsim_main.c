/* The process entry of a BSIM skeleton (contexts and threads back ends). Kept out of
 * libxmpc_bsim.a so that programs that link the library for other reasons
 * (the xmpc driver) never get a second main. The skeletonizer renames the
 * program's main to bsim_main (C) or its main program to subroutine
 * bsim_main_f (Fortran); whichever exists is run once per simulated rank. */
#include <stddef.h>

int bsim_main(int argc, char **argv) __attribute__((weak));
void bsim_main_f_(void) __attribute__((weak));
void _gfortran_set_args(int argc, char **argv) __attribute__((weak));
int bsim_start(int argc, char **argv, int (*cmain)(int, char **), void (*fmain)(void));
void bsim_rank_section(char *start, char *stop);
/* Per-rank variables (BSIM_RANK_VAR in lmpi.h): the linker defines these bounds
 * of section bsim_rank when the program has one; weak, so null when not. */
extern char __start_bsim_rank[] __attribute__((weak));
extern char __stop_bsim_rank[] __attribute__((weak));

/* `xmpc bsim run` refuses a program without this string: it is not a skeleton (a plain
 * MPI program would run as one process and predict nothing). */
const volatile char bsim_skeleton_marker[] = "xmpc-bsim-main";

int main(int argc, char **argv) {
    if (argc < 0) /* never: keeps the marker in a program linked with --gc-sections */
        return bsim_skeleton_marker[0];
    if (_gfortran_set_args)
        _gfortran_set_args(argc, argv);
    bsim_rank_section(__start_bsim_rank, __stop_bsim_rank);
    return bsim_start(argc, argv, bsim_main, bsim_main_f_);
}
