! xmpc-test: np=1,2,4
! local_alias and save_desc of module objects (module variables: the alias is
! associated in the module's init; save_desc changes nothing there) and of an
! explicit-shape aligned dummy (the alias names the caller's block, 0-based)
module la_mod
  integer :: a(16)
  integer :: la(:)
!$xmp nodes p(*)
!$xmp template t(16)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp shadow a(1)
!$xmp local_alias la => a
!$xmp save_desc :: p, t, a
end module la_mod
program local_alias_module
  use la_mod
  include 'xmp_lib.h'
  integer :: i, err
  integer :: b(16)
!$xmp align b(i) with t(i)
  err = 0
!$xmp loop on t(i)
  do i = 1, 16
    a(i) = i
  end do
  call sub(b, err)
  if (lbound(la, 1) /= 0) err = err + 1
  if (la(1) /= (16 / xmp_num_nodes()) * (xmp_node_num() - 1) + 1) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
contains
  subroutine sub(x, err)
    integer :: x(16), err
    integer :: lx(:)
!$xmp align x(i) with t(i)
!$xmp local_alias lx => x
!$xmp save_desc x
    if (lbound(lx, 1) /= 0 .or. size(lx) /= 16 / xmp_num_nodes()) err = err + 1
    lx(0) = 7
    if (x((16 / xmp_num_nodes()) * (xmp_node_num() - 1) + 1) /= 7) err = err + 1
  end subroutine sub
end program g
