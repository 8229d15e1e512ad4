! xmpc-test: np=1,2,4
! block distribution, loop, reduction
program block1d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 100
  integer :: i, s, err
  real(8) :: a(n), b(n), x
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp align (i) with t(i) :: b
  s = 0
  err = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
    b(i) = 2 * i
  end do
!$xmp loop on t(i) reduction(+:s)
  do i = 1, n
    s = s + int(a(i) + b(i))
  end do
  if (s /= 3 * n * (n + 1) / 2) err = 1
  x = 0
!$xmp loop on t(i) reduction(max:x)
  do i = 1, n
    x = max(x, a(i))
  end do
  if (x /= n) err = err + 1
!$xmp reduction(max:err)
  if (err /= 0) then
    if (xmp_node_num() == 1) print *, 'ERROR', s, x
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program block1d
