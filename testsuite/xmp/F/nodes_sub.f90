! xmpc-test: np=4
! nodes q(2) = p(3:4): a node subset; task on q, and a template distributed onto q
program nodes_sub
  implicit none
  include 'xmp_lib.h'
  integer :: err, in_q, s
!$xmp nodes p(4)
!$xmp nodes q(2) = p(3:4)
  err = 0
  in_q = 0
!$xmp task on q
  in_q = 1
  s = xmp_node_num()
!$xmp reduction(+:s)
  if (s /= 3) err = err + 1
!$xmp end task
  if ((xmp_node_num() >= 3) .neqv. (in_q == 1)) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program nodes_sub
