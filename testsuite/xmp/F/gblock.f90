! xmpc-test: np=4
! gblock distribution with an explicit mapping array
program gblock
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 20
  integer :: m(4) = (/ 2, 8, 4, 6 /)
  integer :: i, lo, hi, k, err
  real(8) :: a(n)
!$xmp nodes p(4)
!$xmp template t(n)
!$xmp distribute t(gblock(m)) onto p
!$xmp align a(i) with t(i)
  err = 0
  lo = 1
  do k = 1, xmp_node_num() - 1
    lo = lo + m(k)
  end do
  hi = lo + m(xmp_node_num()) - 1
!$xmp loop on t(i)
  do i = 1, n
    if (i < lo .or. i > hi) err = err + 1
    a(i) = 2.0d0 * i
  end do
  do i = lo, hi
    if (a(i) /= 2.0d0 * i) err = err + 1
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program gblock
