! xmpc-test: np=1,2,4
! align a(i) with t(i+1): a(i) lives with t(i+1); loops on t(i+1) and t(i)
program align_offset
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 30
  integer :: i, err, cnt
  integer :: a(n)
!$xmp nodes p(*)
!$xmp template t(n+1)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i+1)
  err = 0
  cnt = 0
!$xmp loop on t(i+1)
  do i = 1, n
    a(i) = -i
    cnt = cnt + 1
  end do
!$xmp loop on t(i)
  do i = 2, n + 1
    if (a(i - 1) /= -(i - 1)) err = err + 1
  end do
!$xmp reduction(+:err, cnt)
  if (err /= 0 .or. cnt /= n) then
    print *, 'ERROR', err, cnt
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program align_offset
