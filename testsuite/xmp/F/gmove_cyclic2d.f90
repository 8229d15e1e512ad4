! xmpc-test: np=2,4
! gmove with a 2-D array aligned with a (cyclic(2), block) template on a 2-D node
! set (lower bounds 0 and -1): <- a (block, block) array (transposed section
! shapes), <- a local array, -> a local array, element <- scalar. Every owner's
! element is checked against its formula.
program gmove_cyclic2d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 11, m = 7
  integer :: i, j, err
  integer :: a(0:n-1, -1:m-2), b(n, m), w(n, m), r(3, m)
!$xmp nodes q(2, *)
!$xmp template tc(0:n-1, -1:m-2)
!$xmp template tb(n, m)
!$xmp distribute tc(cyclic(2), block) onto q
!$xmp distribute tb(block, block) onto q
!$xmp align a(i, j) with tc(i, j)
!$xmp align b(i, j) with tb(i, j)
  err = 0
!$xmp loop (i, j) on tb(i, j)
  do j = 1, m
    do i = 1, n
      b(i, j) = 1000 * i + j
    end do
  end do
  ! a(i, j) = b(i + 1, j + 2)
!$xmp gmove
  a(:, :) = b(:, :)
!$xmp loop (i, j) on tc(i, j) reduction(+:err)
  do j = -1, m - 2
    do i = 0, n - 1
      if (a(i, j) /= 1000 * (i + 1) + j + 2) err = err + 1
    end do
  end do
  ! a strided block of a from a local array
  do j = 1, m
    do i = 1, n
      w(i, j) = -(100 * i + j)
    end do
  end do
!$xmp gmove
  a(1:n-1:3, 0:m-2) = w(2:5, 1:m-1)
!$xmp loop (i, j) on tc(i, j) reduction(+:err)
  do j = -1, m - 2
    do i = 0, n - 1
      if (mod(i - 1, 3) == 0 .and. j >= 0) then
        if (a(i, j) /= -(100 * ((i - 1) / 3 + 2) + j + 1)) err = err + 1
      else
        if (a(i, j) /= 1000 * (i + 1) + j + 2) err = err + 1
      end if
    end do
  end do
  ! element <- scalar, local <- distributed rows
  i = 424242
!$xmp gmove
  a(n-1, m-2) = i
  r = 0
!$xmp gmove
  r(:, :) = a(n-3:n-1, :)
  do j = 1, m
    do i = 1, 3
      if (i == 3 .and. j == m) then
        if (r(i, j) /= 424242) err = err + 1
      else if (mod(n - 4 + i - 1, 3) == 0 .and. j >= 2) then
        if (r(i, j) /= -(100 * ((n - 4 + i - 1) / 3 + 2) + j - 1)) err = err + 1
      else
        if (r(i, j) /= 1000 * (n - 3 + i) + j) err = err + 1
      end if
    end do
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    if (xmp_node_num() == 1) print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program gmove_cyclic2d
