! xmpc-test: np=1,2,4
! bcast of a 2-D real(8) array and a logical from the last node
program bcast_array2d
  implicit none
  include 'xmp_lib.h'
  integer :: i, j, last, err
  real(8) :: w(4, 3)
  logical :: flag
!$xmp nodes p(*)
  last = xmp_num_nodes()
  do j = 1, 3
    do i = 1, 4
      w(i, j) = xmp_node_num() * 100 + i + 10 * j
    end do
  end do
  flag = xmp_node_num() == last
!$xmp bcast (w, flag) from p(last)
  err = 0
  do j = 1, 3
    do i = 1, 4
      if (w(i, j) /= last * 100 + i + 10 * j) err = err + 1
    end do
  end do
  if (.not. flag) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program bcast_array2d
