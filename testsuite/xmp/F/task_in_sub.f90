! xmpc-test: np=2,4
! a subroutine with its own node set and tasks, called from the main program
program task_in_sub
  implicit none
  include 'xmp_lib.h'
  integer :: err
  err = 0
  call sub(err)
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program task_in_sub

subroutine sub(err)
  implicit none
  include 'xmp_lib.h'
  integer, intent(inout) :: err
  integer :: x
!$xmp nodes p(*)
  x = 0
!$xmp task on p(2:2)
  x = 5
!$xmp end task
!$xmp bcast (x) from p(2)
  if (x /= 5) err = err + 1
end subroutine sub
