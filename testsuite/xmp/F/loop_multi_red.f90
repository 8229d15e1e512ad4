! xmpc-test: np=1,2,4
! a loop with several reduction clauses of different operators
program loop_multi_red
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 30
  integer :: i, s, mx, mn, err
  real(8) :: pr
  logical :: anyneg, allpos
  integer :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(cyclic(2)) onto p
!$xmp align a(i) with t(i)
!$xmp loop on t(i)
  do i = 1, n
    a(i) = mod(i * 7, 31) - 3
  end do
  s = 0; mx = -huge(1); mn = huge(1); pr = 1.0d0; anyneg = .false.; allpos = .true.
!$xmp loop on t(i) reduction(+:s) reduction(max:mx) reduction(min:mn) &
!$xmp reduction(*:pr) reduction(.or.:anyneg) reduction(.and.:allpos)
  do i = 1, n
    s = s + a(i)
    mx = max(mx, a(i))
    mn = min(mn, a(i))
    if (i <= 10) pr = pr * 1.5d0
    anyneg = anyneg .or. a(i) < 0
    allpos = allpos .and. a(i) > 0
  end do
  err = 0
  if (s /= sum([(mod(i * 7, 31) - 3, i = 1, n)])) err = err + 1
  if (mx /= maxval([(mod(i * 7, 31) - 3, i = 1, n)])) err = err + 1
  if (mn /= minval([(mod(i * 7, 31) - 3, i = 1, n)])) err = err + 1
  if (abs(pr - 1.5d0**10) > 1.0d-9) err = err + 1
  if (.not. anyneg .or. allpos) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err, s, mx, mn, pr
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program loop_multi_red
