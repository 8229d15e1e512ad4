! xmpc-test: np=1,2,4
! an aligned explicit-shape dummy argument: the subroutine's own template and align
! directives, loop and reflect on the caller's distributed array
program dummy_arg
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 30
  integer :: i, err
  real(8) :: a(n), b(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align (i) with t(i) :: a, b
!$xmp shadow a(1:1)
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
  call average(a, b, n)
  err = 0
!$xmp loop on t(i) reduction(+:err)
  do i = 2, n - 1
    if (b(i) /= i) err = err + 1
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program dummy_arg

subroutine average(x, y, m)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: x(m)
  real(8), intent(out) :: y(m)
  integer :: i
!$xmp nodes q(*)
!$xmp template tt(m)
!$xmp distribute tt(block) onto q
!$xmp align x(i) with tt(i)
!$xmp align y(i) with tt(i)
!$xmp shadow x(1:1)
!$xmp reflect (x)
!$xmp loop on tt(i)
  do i = 2, m - 1
    y(i) = 0.5d0 * (x(i - 1) + x(i + 1))
  end do
end subroutine average
