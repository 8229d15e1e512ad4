! xmpc-test: np=1,2
! `use` after `implicit none`, `private` and declarations, which Omni accepts: the
! use statements move to the top of their unit's specification part
module use_order_a
  implicit none
  integer :: ga = 3
end module use_order_a

module use_order_b
  implicit none
  private
  use use_order_a
  public :: fb
contains
  integer function fb()
    fb = ga + 1
  end function fb
end module use_order_b

program use_order
  implicit none
  include 'xmp_lib.h'
  integer :: err
  use use_order_b
  use use_order_a, only: ga
!$xmp nodes p(*)
  err = 0
  if (fb() /= 4) err = err + 1
  if (ga /= 3) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program use_order
