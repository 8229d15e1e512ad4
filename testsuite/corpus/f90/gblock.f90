! gblock distribution with uneven sizes, and a full shadow refreshed by reflect
! (an all-gather): afterwards every node sees the whole array.
!
! xmpc-test: np=4
program gblock_test
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 40
  integer, parameter :: m(4) = (/ 4, 16, 8, 12 /)
  integer :: a(n), i, nerr, lo, hi, me
!$xmp nodes p(4)
!$xmp template t(n)
!$xmp distribute t(gblock(m)) onto p
!$xmp align a(i) with t(i)
!$xmp shadow a(*)

!$xmp loop on t(i)
  do i = 1, n
    a(i) = i * i
  end do

  ! Each node owns the range given by m.
  me = xmp_node_num()
  lo = 1 + sum(m(1:me-1))
  hi = lo + m(me) - 1
  nerr = 0
!$xmp loop on t(i) reduction(+: nerr)
  do i = 1, n
    if (i < lo .or. i > hi) nerr = nerr + 1
  end do

!$xmp reflect (a)
  do i = 1, n
    if (a(i) /= i * i) nerr = nerr + 1
  end do
!$xmp reduction (+: nerr)

  if (nerr /= 0) then
    if (me == 1) print *, 'FAIL', nerr
    stop 1
  end if
  if (me == 1) print *, 'PASS'
end program gblock_test
