! xmpc-test: np=1,2,4
! Coarrays passed through ordinary dummies into coarray dummies (FFB-MINI's DDCOMX,
! issue 40 causes 9/10): the caller has no explicit interface (here a dummy procedure,
! as a call into another file), so gfortran passes no hidden token and offset and the
! callee reads garbage for them (an MPI_Put to a null window before). Omni finds a
! coarray by its address; so does xmpc's libcaf. Puts and gets of sections that do
! not start at the coarray's first element.
subroutine shift(me, np, bufsnd, bufrcv, n, nerr)
  integer :: me, np, n, nerr
  real(4) :: bufsnd(n)[*], bufrcv(n)[*]
  integer :: i, next, prev
  real(4) :: got(n)
  do i = 1, n
    bufsnd(i) = me * 100 + i
  end do
  bufrcv(1:n) = -1
  sync all
  next = mod(me, np) + 1
  prev = mod(me + np - 2, np) + 1
  bufrcv(3:n)[next] = bufsnd(3:n)
  sync all
  do i = 1, n
    if (i < 3 .and. bufrcv(i) /= -1) nerr = nerr + 1
    if (i >= 3 .and. bufrcv(i) /= prev * 100 + i) nerr = nerr + 1
  end do
  got(2:n) = bufsnd(2:n)[next]
  do i = 2, n
    if (got(i) /= next * 100 + i) nerr = nerr + 1
  end do
  sync all
end subroutine shift

subroutine mid(me, np, s, r, n, nerr, p)
  integer :: me, np, n, nerr
  real(4) :: s(n), r(n)
  external :: p
  call p(me, np, s, r, n, nerr)
end subroutine mid

program main
  interface
    subroutine shift(me, np, bufsnd, bufrcv, n, nerr)
      integer :: me, np, n, nerr
      real(4) :: bufsnd(n)[*], bufrcv(n)[*]
    end subroutine shift
  end interface
  real(4), allocatable :: s(:)[:], r(:)[:]
  integer :: me, np, nerr
  me = this_image()
  np = num_images()
  allocate(s(10)[*], r(10)[*])
  nerr = 0
  call mid(me, np, s, r, 10, nerr, shift)
  call mid(me, np, s, r, 10, nerr, shift)
  call co_sum(nerr)
  if (nerr /= 0) then
    if (me == 1) print *, 'ERROR', nerr
    stop 1
  end if
  if (me == 1) print *, 'PASS'
end program main
