! xmpc-test: np=1,2,4
! nodes, template and aligned arrays declared in a module; used by the main program
! and by a module procedure (loop, reflect, reduction on module data)
module field
  implicit none
  integer, parameter :: n = 32
  real(8) :: u(n), v(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align (i) with t(i) :: u, v
!$xmp shadow u(1:1)
contains
  subroutine smooth()
    integer :: i
!$xmp reflect (u)
!$xmp loop on t(i)
    do i = 2, n - 1
      v(i) = 0.5d0 * (u(i - 1) + u(i + 1))
    end do
  end subroutine smooth
end module field

program module_vars
  use field
  implicit none
  include 'xmp_lib.h'
  integer :: i, err
!$xmp loop on t(i)
  do i = 1, n
    u(i) = 2.0d0 * i
  end do
  call smooth()
  err = 0
!$xmp loop on t(i) reduction(+:err)
  do i = 2, n - 1
    if (v(i) /= 2.0d0 * i) err = err + 1
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program module_vars
