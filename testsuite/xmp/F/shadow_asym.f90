! xmpc-test: np=1,2,4
! asymmetric shadow a(0:2): only the upper halo exists, reflect fills it
program shadow_asym
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 27
  integer :: i, err
  real(8) :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp shadow a(0:2)
  err = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = 1.0d0 / i
  end do
!$xmp reflect (a)
!$xmp loop on t(i) reduction(+:err)
  do i = 1, n - 2
    if (a(i + 2) /= 1.0d0 / (i + 2)) err = err + 1
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program shadow_asym
