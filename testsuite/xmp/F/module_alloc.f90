! xmpc-test: np=1,2,4
! an allocatable aligned array declared in a module, allocated by the main program,
! which also has its own aligned array
module grid
  implicit none
  integer, allocatable :: g(:)
!$xmp nodes p(*)
!$xmp template t(40)
!$xmp distribute t(block) onto p
!$xmp align g(i) with t(i)
end module grid

program module_alloc
  use grid
  implicit none
  include 'xmp_lib.h'
  integer :: i, s
  integer :: h(40)
!$xmp align h(i) with t(i)
  allocate(g(40))
!$xmp loop on t(i)
  do i = 1, 40
    g(i) = i
    h(i) = 2 * g(i)
  end do
  s = 0
!$xmp loop on t(i) reduction(+:s)
  do i = 1, 40
    s = s + g(i) + h(i)
  end do
  if (s /= 3 * 40 * 41 / 2) then
    print *, 'ERROR', s
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program module_alloc
