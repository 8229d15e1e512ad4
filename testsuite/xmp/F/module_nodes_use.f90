! xmpc-test: np=1,2,4
! module-level `nodes`/`template`/`distribute` used by the procedures of another
! module of the file (the `use` chain carries them)
module module_nodes_use_m
  implicit none
!$xmp nodes p(*)
!$xmp template t(24)
!$xmp distribute t(block) onto p
end module module_nodes_use_m

module module_nodes_use_w
  use module_nodes_use_m
  implicit none
contains
  subroutine work(s)
    integer(8) :: s
    integer :: i
    real(8) :: a(24)
!$xmp align a(i) with t(i)
!$xmp loop on t(i)
    do i = 1, 24
      a(i) = i
    end do
    s = 0
!$xmp loop on t(i) reduction(+:s)
    do i = 1, 24
      s = s + int(a(i), 8)
    end do
!$xmp task on p(1)
    s = s + 0
!$xmp end task
  end subroutine work
end module module_nodes_use_w

program module_nodes_use
  use module_nodes_use_w
  implicit none
  include 'xmp_lib.h'
  integer(8) :: s
  integer :: err
  err = 0
  call work(s)
  if (s /= 300) err = 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', s
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program module_nodes_use
