! xmpc-test: np=1,2,3,4
! array directive: each node assigns the elements it owns of a 1-D block array
! (whole array, sections, a shifted right side, a stride, an undistributed array
! on the right, a neighbour's element through the shadow, one element), of a 2-D (block, *) array and of an array aligned
! with an offset; checked element by element with loop directives.
program array_dir
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 23, m = 5
  integer :: i, j, err
  real(8) :: a(n), b(n), c(0:n+1), w(n), g(m, n), h(m, n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp template t0(0:n+1)
!$xmp distribute t(block) onto p
!$xmp distribute t0(block) onto p
!$xmp align (i) with t(i) :: a, b
!$xmp align (i) with t0(i) :: c
!$xmp align (*, j) with t(j) :: g, h
!$xmp shadow b(1)
  err = 0
  do i = 1, n
    w(i) = 1000 + i
  end do
!$xmp array on t
  b = 0.5d0
!$xmp loop on t(i)
  do i = 1, n
    b(i) = b(i) + i
  end do
!$xmp array on t
  a = 2 * b
!$xmp reflect (b)
!$xmp array on t(2:n-1)
  a(2:n-1) = b(1:n-2) + w(3:n)
!$xmp array on t(1:n:3)
  a(1:n:3) = -b(1:n:3)
!$xmp array on t(n)
  a(n) = 7.0d0
!$xmp loop on t(i)
  do i = 1, n
    if (i == n) then
      if (a(i) /= 7.0d0) err = err + 1
    else if (mod(i - 1, 3) == 0) then
      if (a(i) /= -(i + 0.5d0)) err = err + 1
    else if (i >= 2 .and. i <= n - 1) then
      if (a(i) /= (i - 1) + 0.5d0 + w(i + 1)) err = err + 1
    else
      if (a(i) /= 2 * (i + 0.5d0)) err = err + 1
    end if
  end do
!$xmp array on t0(0:n+1)
  c(0:n+1) = 3.0d0
!$xmp array on t0(1:n)
  c(1:n) = w
!$xmp loop on t0(i)
  do i = 0, n + 1
    if (i == 0 .or. i == n + 1) then
      if (c(i) /= 3.0d0) err = err + 1
    else
      if (c(i) /= w(i)) err = err + 1
    end if
  end do
!$xmp array on t
  g = 1.0d0
!$xmp array on t(2:n)
  g(2:m, 2:n) = 10 * g(1:m-1, 2:n) + 1
!$xmp array on t
  h(:, :) = g(:, :) + g
!$xmp loop on t(j)
  do j = 1, n
    do i = 1, m
      if (i >= 2 .and. j >= 2) then
        if (g(i, j) /= 11.0d0 .or. h(i, j) /= 22.0d0) err = err + 1
      else
        if (g(i, j) /= 1.0d0 .or. h(i, j) /= 2.0d0) err = err + 1
      end if
    end do
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    if (xmp_node_num() == 1) print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program array_dir
