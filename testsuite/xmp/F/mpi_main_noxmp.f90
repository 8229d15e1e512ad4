! xmpc-test: np=1,3
! A main program with no XMP directive and no coarray, compiled by xmpc, that leaves
! MPI_Init to the compiler as Omni does (FFB-MINI's main: its `call MPI_Init` is
! commented out, and that comment must not make it a plain MPI program).
program mpi_main_noxmp
  include 'mpif.h'
  integer :: ierr, rank, nprocs, s
  !call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_Allreduce(rank + 1, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (s /= nprocs * (nprocs + 1) / 2) then
    print *, 'ERROR', s
    call exit(1)
  end if
  if (rank == 0) print *, 'PASS'
end program mpi_main_noxmp
