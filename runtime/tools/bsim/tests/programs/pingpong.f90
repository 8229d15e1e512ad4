! Fortran ping-pong against lmpif.h: rank 0 prints its virtual time.
subroutine bsim_main_f
  implicit none
  include 'lmpif.h'
  integer :: rank, ierr, i, st(LMPI_STATUS_SIZE)
  double precision :: b(2)
  call lmpi_init(ierr)
  call lmpi_comm_rank(LMPI_COMM_WORLD, rank, ierr)
  do i = 1, 4
    if (rank == 0) then
      call lmpi_send(b, 125, LMPI_DOUBLE_PRECISION, 1, 0, LMPI_COMM_WORLD, ierr)
      call lmpi_recv(b, 125, LMPI_DOUBLE_PRECISION, 1, 0, LMPI_COMM_WORLD, st, ierr)
    else if (rank == 1) then
      call lmpi_recv(b, 125, LMPI_DOUBLE_PRECISION, 0, 0, LMPI_COMM_WORLD, LMPI_STATUS_IGNORE, ierr)
      call bsim_add_time(1.0d-3)
      call lmpi_send(b, 125, LMPI_DOUBLE_PRECISION, 0, 0, LMPI_COMM_WORLD, ierr)
    end if
  end do
  if (rank == 0) print '(a,es24.16,a,i0)', 'time ', lmpi_wtime(), ' source ', st(LMPI_SOURCE)
  call lmpi_finalize(ierr)
end subroutine bsim_main_f
