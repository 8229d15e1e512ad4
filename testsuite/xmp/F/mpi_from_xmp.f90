! xmpc-test: np=4
! MPI called from an XMP program (Omni's util/F/xmp_mpi.f90): `call xmp_init_mpi()`
! in an XMP main program, the communicator of a task's executing nodes from
! `xmp_get_mpi_comm()` (undeclared, under `implicit none`) used by MPI calls, and
! `call xmp_finalize_mpi()` before the end.
program mpi_from_xmp
  implicit none
  include 'mpif.h'
  integer :: comm, wrank, irank, isize, ierr, nerr, s
!$xmp nodes p(4)
  call xmp_init_mpi()
  nerr = 0
  call MPI_Comm_rank(MPI_COMM_WORLD, wrank, ierr)
  if (wrank + 1 /= xmp_node_num()) nerr = nerr + 1
!$xmp task on p(2:3)
  comm = xmp_get_mpi_comm()
  call MPI_Comm_rank(comm, irank, ierr)
  call MPI_Comm_size(comm, isize, ierr)
  if (isize /= 2 .or. irank /= wrank - 1) nerr = nerr + 1
  call MPI_Allreduce(wrank, s, 1, MPI_INTEGER, MPI_SUM, comm, ierr)
  if (s /= 1 + 2) nerr = nerr + 1
!$xmp end task
!$xmp reduction(+:nerr)
  if (nerr /= 0) then
    if (wrank == 0) print *, 'ERROR', nerr
    call exit(1)
  end if
  if (wrank == 0) print *, 'PASS'
  call xmp_finalize_mpi()
end program mpi_from_xmp
