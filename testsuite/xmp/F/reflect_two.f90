! xmpc-test: np=1,2,4
! reflect (a, b) async(3) of two arrays, then wait_async(3); widths narrower than shadows
program reflect_two
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 32
  integer :: i, err
  integer :: a(n), b(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align (i) with t(i) :: a, b
!$xmp shadow a(2:2)
!$xmp shadow b(1:1)
  err = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
    b(i) = -i
  end do
!$xmp reflect (a, b) width(1:1) async(3)
!$xmp wait_async(3)
!$xmp loop on t(i) reduction(+:err)
  do i = 2, n - 1
    if (a(i - 1) /= i - 1 .or. a(i + 1) /= i + 1) err = err + 1
    if (b(i - 1) /= 1 - i .or. b(i + 1) /= -1 - i) err = err + 1
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program reflect_two
