! xmpc-test: np=2
! A plain MPI program (no XMP directive, calls MPI_Init and MPI_Finalize itself)
! compiled by xmpc is left as it is: the runtime does not start MPI before it.
program mpi_plain
  include 'mpif.h'
  integer :: ierr, rank, nprocs, s
  logical :: up
  call MPI_Initialized(up, ierr)
  if (up) then
    print *, 'ERROR: MPI was started before the program'
    call exit(1)
  end if
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_Allreduce(1, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (s /= nprocs) print *, 'ERROR', s
  if (rank == 0 .and. s == nprocs) print *, 'PASS'
  call MPI_Finalize(ierr)
end program mpi_plain
