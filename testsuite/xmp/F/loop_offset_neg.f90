! xmpc-test: np=1,2,4
! loop on t(i-1): iteration i runs where template index i-1 lives
program loop_offset_neg
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 20
  integer :: i, err
  integer :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
  err = 0
!$xmp loop on t(i-1) reduction(+:err)
  do i = 2, n + 1
    if (a(i - 1) /= i - 1) err = err + 1
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program loop_offset_neg
