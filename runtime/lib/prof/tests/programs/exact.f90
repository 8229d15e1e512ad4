! Exact-accounting test program for xmpc-prof, Fortran bindings (2 ranks).
! The main program uses mpif.h; subroutine collectives uses `use mpi`.
! Every call is mirrored by an expectation in tests/exact.rs.
program exact_f
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, i, req(2), st(MPI_STATUS_SIZE)
  integer(kind=1), allocatable :: big(:)
  double precision :: d(10), t
  integer :: ib(10, 2)
  integer :: sizes(4)
  sizes = (/ 0, 1, 4096, 16777216 /)

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  allocate(big(16777216))
  big = 0
  d = 0.0d0
  ib = 0

  if (rank == 0) then
     do i = 1, 4
        call mpi_send(big, sizes(i), MPI_BYTE, 1, i, MPI_COMM_WORLD, ierr)
     end do
     call mpi_send(d, 10, MPI_DOUBLE_PRECISION, 1, 9, MPI_COMM_WORLD, ierr)
     call mpi_isend(ib(1,1), 10, MPI_INTEGER, 1, 20, MPI_COMM_WORLD, req(1), ierr)
     call mpi_isend(ib(1,2), 10, MPI_INTEGER, 1, 21, MPI_COMM_WORLD, req(2), ierr)
     call mpi_waitall(2, req, MPI_STATUSES_IGNORE, ierr)
  else if (rank == 1) then
     do i = 1, 4
        if (i <= 2) then
           call mpi_recv(big, 16777216, MPI_BYTE, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        else
           call mpi_recv(big, 16777216, MPI_BYTE, MPI_ANY_SOURCE, i, MPI_COMM_WORLD, st, ierr)
        end if
     end do
     call mpi_recv(d, 10, MPI_DOUBLE_PRECISION, 0, 9, MPI_COMM_WORLD, st, ierr)
     call mpi_irecv(ib(1,1), 10, MPI_INTEGER, 0, 20, MPI_COMM_WORLD, req(1), ierr)
     call mpi_irecv(ib(1,2), 10, MPI_INTEGER, MPI_ANY_SOURCE, 21, MPI_COMM_WORLD, req(2), ierr)
     call mpi_waitall(2, req, MPI_STATUSES_IGNORE, ierr)
  end if

  call collectives(rank)

  do i = 1, 3
     t = mpi_wtime()
  end do
  deallocate(big)
  call mpi_finalize(ierr)
end program exact_f

subroutine collectives(rank)
  use mpi
  implicit none
  integer, intent(in) :: rank
  integer :: ierr, ibuf(100), g(2), a2a_s(4), a2a_r(4), sr_s(2), sr_r(2)
  double precision :: x, y
  ibuf = 0
  a2a_s = 0
  sr_s = 0
  call mpi_bcast(ibuf, 100, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
  x = 1.0d0
  call mpi_allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call mpi_allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call mpi_gather(rank, 1, MPI_INTEGER, g, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call mpi_alltoall(a2a_s, 2, MPI_INTEGER, a2a_r, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call mpi_sendrecv(sr_s, 2, MPI_INTEGER, 1 - rank, 4, sr_r, 2, MPI_INTEGER, 1 - rank, 4, &
       MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
end subroutine collectives
