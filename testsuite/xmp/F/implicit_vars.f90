! xmpc-test: np=1,2,4
! implicitly typed variables in directives (`reduction(max:ierr)`, `ierr` implicit),
! `implicit real*8 (a-h, o-z)`, and function result variables in `reduction`
program implicit_vars
  include 'xmp_lib.h'
!$xmp nodes p(*)
  ierr = 0
  me = xmp_node_num()
  nn = xmp_num_nodes()
  mx = me
!$xmp reduction(max:mx)
  if (mx /= nn) ierr = ierr + 1
  x = 0.5
!$xmp reduction(+:x)
  if (abs(x - 0.5 * nn) > 1e-5) ierr = ierr + 1
  if (isum(me) /= nn * (nn + 1) / 2) ierr = ierr + 1
  if (abs(dsum(me) - 0.125d0 * nn * (nn + 1)) > 1d-12) ierr = ierr + 1
  if (abs(r8sum() - 1d-1 * nn) > 1d-12) ierr = ierr + 1
!$xmp reduction(max:ierr)
  if (ierr /= 0) then
    print *, 'ERROR', ierr
    stop 1
  end if
  if (me == 1) print *, 'PASS'
contains
  integer function isum(k)
    integer :: k
    isum = k
!$xmp reduction(+:isum)
  end function isum
  function dsum(k) result(d)
    integer :: k
    double precision :: d
    d = 0.25d0 * k
!$xmp reduction(+:d)
  end function dsum
  double precision function r8sum()
    implicit real*8 (a-h, o-z)
    y = 1d-1
!$xmp reduction(+:y)
    r8sum = y
  end function r8sum
end program implicit_vars
