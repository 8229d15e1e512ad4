! Modelling-transform input: blocking calls in the forms the transform meets
! (plain, logical if, continued lines, sendrecv, collectives).
program exchange
  use mpi
  implicit none
  integer :: ierr, rank, np, st(MPI_STATUS_SIZE), i
  double precision :: a(100), b(100), s, g
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  do i = 1, 100
    a(i) = rank + i
  end do
  if (rank == 0) call MPI_Send(a, 100, MPI_DOUBLE_PRECISION, 1, 3, MPI_COMM_WORLD, ierr)
  if (rank == 1) then
    call MPI_Recv(b, 100, MPI_DOUBLE_PRECISION, 0, 3, &
                  MPI_COMM_WORLD, st, ierr)
    if (b(100) /= 100.0d0) stop 1
  end if
  call MPI_Sendrecv(a, 100, MPI_DOUBLE_PRECISION, mod(rank + 1, np), 4, b, 100, MPI_DOUBLE_PRECISION, &
                    mod(rank + np - 1, np), 4, MPI_COMM_WORLD, st, ierr)
  s = sum(b)
  call MPI_Allreduce(s, g, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(g, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (g /= np * 5050.0d0 + 100.0d0 * np * (np - 1) / 2) stop 2
    print '(a)', 'EXCHANGE VERIFIED'
  end if
  call MPI_Finalize(ierr)
end program exchange
