! xmpc-test: np=1,2,4
! arrays with lower bounds other than 1: a(0:n-1) with t(0:n-1), b(-3:n-4) with t(0:n-1)
program lower_bound
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 21
  integer :: i, err
  integer :: a(0:n-1), b(-3:n-4)
!$xmp nodes p(*)
!$xmp template t(0:n-1)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp align b(i) with t(i+3)
!$xmp shadow a(1:1)
  err = 0
!$xmp loop on t(i)
  do i = 0, n - 1
    a(i) = 10 * i
  end do
!$xmp loop on t(i+3)
  do i = -3, n - 4
    b(i) = i
  end do
!$xmp reflect (a)
!$xmp loop on t(i)
  do i = 1, n - 2
    if (a(i - 1) + a(i + 1) /= 20 * i) err = err + 1
    if (b(i - 3) /= i - 3) err = err + 1
    if (lbound(a, 1) > i - 1 .or. ubound(a, 1) < i + 1) err = err + 1
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program lower_bound
