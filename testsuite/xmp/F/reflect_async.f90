! xmpc-test: np=1,2,4
! reflect async(1) + wait_async(1)
program reflect_async
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 24
  integer :: i, err
  real :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp shadow a(2:2)
  err = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = real(i)
  end do
!$xmp reflect (a) width(2:2) async(1)
!$xmp wait_async(1)
!$xmp loop on t(i)
  do i = 3, n - 2
    if (a(i - 2) + a(i + 2) /= 2.0 * i) err = err + 1
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program reflect_async
