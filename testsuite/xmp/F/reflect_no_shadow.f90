! xmpc-test: np=1,3
! `reflect` of an aligned array without `shadow` (Omni's Fortran front end accepts it,
! SCOPE bug472G2 / bb472G2): nothing to exchange, the array is unchanged; a module
! array reflected in the main program and in a module procedure, and a local one.
module reflect_no_shadow_m
  implicit none
!$xmp nodes p(*)
!$xmp template t(10)
!$xmp distribute t(block) onto p
  real :: a(10, 10)
!$xmp align a(*, i) with t(i)
contains
  subroutine refl()
!$xmp reflect (a)
  end subroutine refl
end module reflect_no_shadow_m

program reflect_no_shadow
  use reflect_no_shadow_m
  implicit none
  include 'xmp_lib.h'
  integer :: i, j, err
  integer :: b(10)
!$xmp align b(i) with t(i)
!$xmp loop on t(j)
  do j = 1, 10
    b(j) = j
    do i = 1, 10
      a(i, j) = i + 100 * j
    end do
  end do
!$xmp reflect (a)
  call refl()
!$xmp reflect (b)
  err = 0
!$xmp loop on t(j) reduction(+:err)
  do j = 1, 10
    if (b(j) /= j) err = err + 1
    do i = 1, 10
      if (a(i, j) /= i + 100 * j) err = err + 1
    end do
  end do
  if (err /= 0) then
    print *, 'ERROR', err
  else if (xmp_node_num() == 1) then
    print *, 'PASS'
  end if
end program reflect_no_shadow
