! xmpc-test: np=1,2,4
! template and array with negative lower bounds: t(-5:10), a(-5:10)
program template_lower
  implicit none
  include 'xmp_lib.h'
  integer :: i, s, cnt
  integer :: a(-5:10)
!$xmp nodes p(*)
!$xmp template t(-5:10)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp shadow a(1)
  cnt = 0
!$xmp loop on t(i)
  do i = -5, 10
    a(i) = i
    cnt = cnt + 1
  end do
!$xmp reflect (a)
  s = 0
!$xmp loop on t(i) reduction(+:s)
  do i = -4, 9
    s = s + a(i - 1) + a(i + 1)
  end do
!$xmp reduction(+:cnt)
  if (s /= 2 * sum([(i, i = -4, 9)]) .or. cnt /= 16) then
    print *, 'ERROR', s, cnt
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program template_lower
