!$xmp nodes p(*)
!$xmp template t(16)
!$xmp distribute t(block) onto p
! xmpc-test: np=1,2,4
! A main program without a `program` statement whose specification part starts
! with XMP directives (Omni's loop/360_arrayAsign.f90): the directives belong to it;
! `xmp_node_num()` used undeclared under `implicit none`.
  implicit none
  integer,parameter :: n = 16
  real(8) :: a(n)
!$xmp align a(i) with t(i)
  integer :: i, err
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
  err = 0
!$xmp loop on t(i) reduction(+:err)
  do i = 1, n
    if (a(i) /= i) err = err + 1
  end do
  if (err == 0) then
    if (xmp_node_num() == 1) print *, 'PASS'
  else
    print *, 'ERROR', err
  end if
end
