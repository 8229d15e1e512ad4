! xmpc-test: np=4
! reduction on a named node subset and on the whole node set
program reduction_on
  implicit none
  include 'xmp_lib.h'
  integer :: x, y, err
!$xmp nodes p(4)
!$xmp nodes q(2) = p(1:2)
  err = 0
  x = xmp_node_num()
  y = xmp_node_num()
!$xmp reduction(+:x) on q
!$xmp reduction(max:y) on p
  if (xmp_node_num() <= 2) then
    if (x /= 3) err = err + 1
  else
    if (x /= xmp_node_num()) err = err + 1
  end if
  if (y /= 4) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program reduction_on
