! lmpi.f90: `use lmpi` for Fortran skeletons (the skeletonizer maps `use mpi`
! to `use lmpi`). Same constants as lmpif.h; the calls are external
! procedures with gfortran mangling (lmpi_send_, ...). See docs/bsim.md.
module lmpi
  implicit none
  include 'lmpif.h'
end module lmpi
