! Fortran: rank 1 sends 800 bytes three times with a persistent request after
! 1 ms of compute each; rank 0 probes, reads the size, receives.
subroutine bsim_main_f
  use lmpi
  implicit none
  integer :: r, n, ierr, q, k, c, st(LMPI_STATUS_SIZE)
  double precision :: x(100)
  call lmpi_init(ierr)
  call lmpi_comm_rank(LMPI_COMM_WORLD, r, ierr)
  call lmpi_comm_size(LMPI_COMM_WORLD, n, ierr)
  if (r == 1) then
    call lmpi_send_init(x, 100, LMPI_DOUBLE_PRECISION, 0, 5, LMPI_COMM_WORLD, q, ierr)
    do k = 1, 3
      call bsim_add_time(1.0d-3)
      call lmpi_start(q, ierr)
      call lmpi_wait(q, LMPI_STATUS_IGNORE, ierr)
    end do
    call lmpi_request_free(q, ierr)
  else if (r == 0) then
    do k = 1, 3
      call lmpi_probe(LMPI_ANY_SOURCE, 5, LMPI_COMM_WORLD, st, ierr)
      call lmpi_get_count(st, LMPI_DOUBLE_PRECISION, c, ierr)
      call lmpi_recv(x, c, LMPI_DOUBLE_PRECISION, st(LMPI_SOURCE), 5, LMPI_COMM_WORLD, st, ierr)
    end do
    print '(a,i0,a,i0,a,es24.16)', 'count ', c, ' from ', st(LMPI_SOURCE), ' time ', lmpi_wtime()
  end if
  call lmpi_finalize(ierr)
end subroutine
