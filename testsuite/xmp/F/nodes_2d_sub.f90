! xmpc-test: np=4
! nodes row(2) = p(:, 1): a row of a 2x2 node set
program nodes_2d_sub
  implicit none
  include 'xmp_lib.h'
  integer :: x, err
!$xmp nodes p(2, 2)
!$xmp nodes row(2) = p(:, 1)
  err = 0
  x = xmp_node_num()
!$xmp reduction(+:x) on row
  ! p(1,1) = node 1, p(2,1) = node 2 (dim 1 fastest)
  if (xmp_node_num() <= 2 .and. x /= 3) err = err + 1
  if (xmp_node_num() > 2 .and. x /= xmp_node_num()) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err, x
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program nodes_2d_sub
