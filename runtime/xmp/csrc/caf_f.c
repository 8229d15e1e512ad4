/* Fortran coarrays (docs/local-view.md): a file that uses coarrays is compiled with
 * gfortran -fcoarray=lib and the program is linked with OpenCoarrays' libcaf_mpich,
 * which shares MPI_COMM_WORLD with the XMP runtime (image i is node i).
 *
 * Who starts and ends MPI: gfortran's main() calls _gfortran_caf_init (MPI_Init_thread
 * unless MPI is up, then a dup of MPI_COMM_WORLD) before the main program; xmpf_init
 * calls it again (a no-op then; it starts MPI when the main program's file was not
 * compiled with -fcoarray=lib but another file was). At the end xmpf_stop(0)
 * releases the XMP runtime's MPI objects first, then _gfortran_caf_finalize (an
 * implied sync all, frees its windows, MPI_Finalize), then the XMP runtime finds
 * MPI finalized and leaves it. A program without coarrays links no libcaf: the weak
 * references stay null and nothing here runs.
 */
#include <stddef.h>
#include <stdint.h>

void _gfortran_caf_init(int *argc, char ***argv) __attribute__((weak));
void _gfortran_caf_finalize(void) __attribute__((weak));

void xmpf_caf_init(void) {
  if (_gfortran_caf_init) {
    int argc = 0;
    char **argv = NULL;
    _gfortran_caf_init(&argc, &argv);
  }
}

/* 1 when libcaf is linked (it has now finalized MPI), else 0. */
int xmpf_caf_finalize(void) {
  if (!_gfortran_caf_finalize) return 0;
  _gfortran_caf_finalize();
  return 1;
}
