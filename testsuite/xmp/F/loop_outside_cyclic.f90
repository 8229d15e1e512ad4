! xmpc-test: np=1,2,4
! a loop range reaching outside the template (Omni's async/F gmove_async: do i = 1, 18
! on t(1:8)): the iterations outside it are nobody's, as in Omni; block and cyclic,
! from below and above, with a step
program loop_outside_cyclic
  include 'xmp_lib.h'
  integer, parameter :: n = 8
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp template tc(n)
!$xmp distribute t(block) onto p
!$xmp distribute tc(cyclic) onto p
  integer :: a(n), c(n), cnt, cnt2, err, i
!$xmp align a(i) with t(i)
!$xmp align c(i) with tc(i)
  err = 0
  cnt = 0
  cnt2 = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = 0
  end do
!$xmp loop on tc(i)
  do i = 1, n
    c(i) = 0
  end do
!$xmp loop on t(i) reduction(+:cnt)
  do i = 1, 2 * n + 2
    a(i) = a(i) + i
    cnt = cnt + 1
  end do
!$xmp loop on tc(i) reduction(+:cnt2)
  do i = -3, n + 5, 2
    c(i) = c(i) + i
    cnt2 = cnt2 + 1
  end do
  ! block: 1..8 once each; cyclic: -3, -1, 1, 3, 5, 7 of which 1, 3, 5, 7 are inside
  if (cnt /= n .or. cnt2 /= 4) err = err + 1
!$xmp loop on t(i) reduction(+:err)
  do i = 1, n
    if (a(i) /= i) err = err + 1
  end do
!$xmp loop on tc(i) reduction(+:err)
  do i = 1, n
    if (mod(i, 2) == 1 .and. c(i) /= i) err = err + 1
    if (mod(i, 2) == 0 .and. c(i) /= 0) err = err + 1
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program
