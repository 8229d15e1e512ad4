! xmpc-test: np=1,2,4
! template t(:) fixed at run time by template_fix, with an allocatable aligned array
program template_fix
  implicit none
  include 'xmp_lib.h'
  integer :: i, n, s
  integer, allocatable :: a(:)
!$xmp nodes p(*)
!$xmp template t(:)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
  n = 10 * xmp_num_nodes() + 3
!$xmp template_fix t(n)
  allocate(a(n))
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
  s = 0
!$xmp loop on t(i) reduction(+:s)
  do i = 1, n
    s = s + a(i)
  end do
  if (s /= n * (n + 1) / 2) then
    print *, 'ERROR', s
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program template_fix
