! xmpc-test: np=2,4
! array directive on a 2-D (cyclic(2), block) template on a 2-D node set (lower
! bounds 0 and -1): strided section in the cyclic dimension, a section in the block
! dimension, a local array and the array itself on the right; checked element by
! element with a loop directive.
program array_cyclic2d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 11, m = 7
  integer :: i, j, err
  integer :: a(0:n-1, -1:m-2), w(n, m)
!$xmp nodes q(2, *)
!$xmp template tc(0:n-1, -1:m-2)
!$xmp distribute tc(cyclic(2), block) onto q
!$xmp align a(i, j) with tc(i, j)
  err = 0
  do j = 1, m
    do i = 1, n
      w(i, j) = 100 * i + j
    end do
  end do
!$xmp array on tc
  a = -1
!$xmp array on tc(1:n-1:2, 0:m-2)
  a(1:n-1:2, 0:m-2) = w(2:n:2, 1:m-1) + a(1:n-1:2, 0:m-2)
!$xmp loop (i, j) on tc(i, j) reduction(+:err)
  do j = -1, m - 2
    do i = 0, n - 1
      if (mod(i, 2) == 1 .and. j >= 0) then
        if (a(i, j) /= 100 * (i + 1) + j + 1 - 1) err = err + 1
      else
        if (a(i, j) /= -1) err = err + 1
      end if
    end do
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    if (xmp_node_num() == 1) print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program array_cyclic2d
