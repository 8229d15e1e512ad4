! Plain MPI (no XMP): pass a token around a ring, then check an allreduce.
! Used by the skeleton / BSIM tool chain as an ordinary MPI program.
!
! xmpc-test: np=4
program mpi_ring
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, left, right, token, total
  integer :: status(MPI_STATUS_SIZE)
  double precision :: t0, t1

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank - 1 + nprocs, nprocs)

  t0 = MPI_Wtime()
  if (rank == 0) then
    token = 1
    call MPI_Send(token, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, ierr)
    call MPI_Recv(token, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, status, ierr)
  else
    call MPI_Recv(token, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, status, ierr)
    token = token + 1
    call MPI_Send(token, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, ierr)
  end if
  t1 = MPI_Wtime()

  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (token /= nprocs .or. total /= nprocs * (nprocs - 1) / 2) then
      print *, 'FAIL', token, total
      call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    print *, 'PASS'
  end if
  call MPI_Finalize(ierr)
end program mpi_ring
