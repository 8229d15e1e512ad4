! xmpc-test: np=1,2,4
! Fortran that Omni's front end accepts and gfortran does not (docs/omni-compat.md):
! an initialised entity declared without `::`, a dot operator with blanks inside,
! `end subroutine` naming another procedure, `end program` closing a contained
! subroutine; gblock mapped by such an array.
module omni_decl_m
  integer m(2)=(/3,5/)
contains
  subroutine check(k, r)
    integer k, r
    r = 0
    if (k . ne. 8 .or . m(1). ne .3) r = 1
  end subroutine other_name
end module omni_decl_m

program omni_decl_forms
  use omni_decl_m
  integer result = 0
  integer a(8), i, s, r
!$xmp nodes p(*)
!$xmp template t(8)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp loop on t(i)
  do i = 1, 8
    a(i) = 1
  end do
  s = 0
!$xmp loop on t(i) reduction(+:s)
  do i = 1, 8
    s = s + a(i)
  end do
  call check(s, r)
  call inner(result)
  if (r == 0 .and. result == 2) then
    if (xmp_node_num() == 1) print *, 'PASS'
  else
    print *, 'ERROR', s, r, result
  end if
contains
  subroutine inner(x)
    integer x
    integer two = 2
    x = two
  end program
end program omni_decl_forms
