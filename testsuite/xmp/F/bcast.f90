! xmpc-test: np=1,2,4
! bcast of a scalar and an array, from the first node and from the last
program bcast
  implicit none
  include 'xmp_lib.h'
  integer :: x, v(5), err, k, last
  real(8) :: d
!$xmp nodes p(*)
  err = 0
  last = xmp_num_nodes()
  x = xmp_node_num() * 10
  d = xmp_node_num() + 0.5d0
  do k = 1, 5
    v(k) = k + xmp_node_num()
  end do
!$xmp bcast (x)
  if (x /= 10) err = err + 1
!$xmp bcast (v, d) from p(last)
  do k = 1, 5
    if (v(k) /= k + last) err = err + 1
  end do
  if (d /= last + 0.5d0) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program bcast
