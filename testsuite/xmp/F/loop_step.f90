! xmpc-test: np=1,2,4
! loops with a step and partial ranges on block and cyclic templates
program loop_step
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 41
  integer :: i, s1, s2, s3, e1, e2, e3
!$xmp nodes p(*)
!$xmp template tb(n)
!$xmp template tc(n)
!$xmp distribute tb(block) onto p
!$xmp distribute tc(cyclic) onto p
  s1 = 0; s2 = 0; s3 = 0
!$xmp loop on tb(i) reduction(+:s1)
  do i = 3, n - 2, 3
    s1 = s1 + i
  end do
!$xmp loop on tc(i) reduction(+:s2)
  do i = 2, n, 2
    s2 = s2 + i
  end do
!$xmp loop on tc(i) reduction(+:s3)
  do i = 5, 17
    s3 = s3 + i
  end do
  e1 = 0; e2 = 0; e3 = 0
  do i = 3, n - 2, 3
    e1 = e1 + i
  end do
  do i = 2, n, 2
    e2 = e2 + i
  end do
  do i = 5, 17
    e3 = e3 + i
  end do
  if (s1 /= e1 .or. s2 /= e2 .or. s3 /= e3) then
    print *, 'ERROR', s1, e1, s2, e2, s3, e3
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program loop_step
