! `use lmpi` (module source include/lmpi.f90) in payload mode: a real sum.
subroutine bsim_main_f
  use lmpi
  implicit none
  integer :: r, n, ierr
  double precision :: x, y
  call lmpi_init(ierr)
  call lmpi_comm_rank(LMPI_COMM_WORLD, r, ierr)
  call lmpi_comm_size(LMPI_COMM_WORLD, n, ierr)
  x = r
  call lmpi_allreduce(x, y, 1, LMPI_DOUBLE_PRECISION, LMPI_SUM, LMPI_COMM_WORLD, ierr)
  call bsim_add_time(1.0d-3)
  if (r == 0) print *, 'sum', y, 'time', lmpi_wtime()
  call lmpi_finalize(ierr)
end subroutine
