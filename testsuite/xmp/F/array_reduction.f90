! xmpc-test: np=1,2,4
! reduction of whole arrays (integer, real(8)) and of an array element sum on a loop
program array_reduction
  implicit none
  include 'xmp_lib.h'
  integer :: v(8), k, err, np
  real(8) :: w(3, 2)
!$xmp nodes p(*)
  np = xmp_num_nodes()
  err = 0
  do k = 1, 8
    v(k) = k * xmp_node_num()
  end do
  w = xmp_node_num()
!$xmp reduction(+:v)
!$xmp reduction(max:w)
  do k = 1, 8
    if (v(k) /= k * np * (np + 1) / 2) err = err + 1
  end do
  if (any(w /= np)) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program array_reduction
