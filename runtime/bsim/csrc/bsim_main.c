/* The process entry of a BSIM skeleton (threads back end). Kept out of
 * libxmpc_bsim.a so that programs that link the library for other reasons
 * (the xmpc driver) never get a second main. The skeletonizer renames the
 * program's main to bsim_main (C) or its main program to subroutine
 * bsim_main_f (Fortran); whichever exists is run once per simulated rank. */
#include <stddef.h>

int bsim_main(int argc, char **argv) __attribute__((weak));
void bsim_main_f_(void) __attribute__((weak));
void _gfortran_set_args(int argc, char **argv) __attribute__((weak));
int bsim_start(int argc, char **argv, int (*cmain)(int, char **), void (*fmain)(void));

int main(int argc, char **argv) {
    if (_gfortran_set_args)
        _gfortran_set_args(argc, argv);
    return bsim_start(argc, argv, bsim_main, bsim_main_f_);
}
