! CRLF line endings throughout; a continued directive and a continued statement.
!
! xmpc-test: np=4
program crlf_test
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 100
  integer :: a(n), i, total, expect
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)

!$xmp loop on t(i)
  do i = 1, n
    a(i) = 2 * i + &
           1
  end do

  total = 0
!$xmp loop on t(i) &
!$xmp& reduction(+: total)
  do i = 1, n
    total = total + a(i)
  end do
  expect = n * (n + 1) + n
  if (total /= expect) then
    if (xmp_node_num() == 1) print *, 'FAIL', total, expect
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program crlf_test
