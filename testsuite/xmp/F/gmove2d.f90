! xmpc-test: np=1,2,4
! gmove between 2-D arrays distributed along different dimensions (a redistribution),
! and gmove in / gmove out of a column section
program gmove2d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 8, m = 12
  integer :: i, j, err
  real(8) :: a(n, m), b(n, m), col(n)
!$xmp nodes p(*)
!$xmp template tc(m)
!$xmp template tr(n)
!$xmp distribute tc(block) onto p
!$xmp distribute tr(block) onto p
!$xmp align a(*, j) with tc(j)
!$xmp align b(i, *) with tr(i)
  err = 0
!$xmp loop on tc(j)
  do j = 1, m
    do i = 1, n
      a(i, j) = i + 100.0d0 * j
    end do
  end do
!$xmp gmove
  b(:, :) = a(:, :)
!$xmp loop on tr(i) reduction(+:err)
  do i = 1, n
    do j = 1, m
      if (b(i, j) /= i + 100.0d0 * j) err = err + 1
    end do
  end do
!$xmp gmove in
  col(:) = a(:, m)
  do i = 1, n
    if (col(i) /= i + 100.0d0 * m) err = err + 1
  end do
  col = -1
!$xmp gmove out
  a(:, 1) = col(:)
!$xmp loop on tc(j) reduction(+:err)
  do j = 1, 1
    do i = 1, n
      if (a(i, j) /= -1) err = err + 1
    end do
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program gmove2d
