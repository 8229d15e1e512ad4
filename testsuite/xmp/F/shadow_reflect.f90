! xmpc-test: np=1,2,4
! shadow + reflect: neighbours' boundary elements after reflect
program shadow_reflect
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 40
  integer :: i, err
  real(8) :: a(n), b(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp align b(i) with t(i)
!$xmp shadow a(1:1)
  err = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i * 3.0d0
  end do
!$xmp reflect (a)
!$xmp loop on t(i)
  do i = 2, n - 1
    b(i) = a(i - 1) + a(i + 1)
    if (b(i) /= 6.0d0 * i) err = err + 1
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program shadow_reflect
