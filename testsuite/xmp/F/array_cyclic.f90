! xmpc-test: np=1,2,3,4
! array directive on cyclic and cyclic(w) templates (arrays stored whole): each
! node assigns the elements it owns. Whole arrays, a section with a local array on
! the right, a stride with a reversed right side, one element, an array with
! lower bound 0 aligned with an offset (cyclic(4)), a 2-D (*, cyclic(3)) array
! with sections that overlap (the right side is read before any store); checked
! element by element with loop directives.
program array_cyclic
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 26, m = 3
  integer :: i, j, err, cnt
  real(8) :: a(n), b(n), c(0:n+1), w(n), g(m, n), h(m, n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp template t0(n+2)
!$xmp template tw(n)
!$xmp distribute t(cyclic) onto p
!$xmp distribute t0(cyclic(4)) onto p
!$xmp distribute tw(cyclic(3)) onto p
!$xmp align (i) with t(i) :: a, b
!$xmp align c(i) with t0(i+1)
!$xmp align (*, j) with tw(j) :: g, h
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
!$xmp array on t(2:n-1)
  a(2:n-1) = b(2:n-1) + w(3:n)
!$xmp array on t(1:n:3)
  a(1:n:3) = -w(n:1:-3)
!$xmp array on t(n)
  a(n) = 7.0d0
  cnt = 0
!$xmp loop on t(i) reduction(+:err, cnt)
  do i = 1, n
    cnt = cnt + 1
    if (i == n) then
      if (a(i) /= 7.0d0) err = err + 1
    else if (mod(i - 1, 3) == 0) then
      if (a(i) /= -w(n - (i - 1))) err = err + 1
    else if (i >= 2 .and. i <= n - 1) then
      if (a(i) /= i + 0.5d0 + w(i + 1)) err = err + 1
    else
      if (a(i) /= 2 * (i + 0.5d0)) err = err + 1
    end if
  end do
  if (cnt /= n) err = err + 1000
  ! c(i) is aligned with t0(i + 1)
!$xmp array on t0(1:n+2)
  c(0:n+1) = 3.0d0
!$xmp array on t0(4:n)
  c(3:n-1) = w(1:n-3) * 2
!$xmp loop on t0(i) reduction(+:err)
  do i = 1, n + 2
    if (i >= 4 .and. i <= n) then
      if (c(i - 1) /= 2 * w(i - 3)) err = err + 1
    else
      if (c(i - 1) /= 3.0d0) err = err + 1
    end if
  end do
  ! 2-D, (*, cyclic(3))
!$xmp array on tw
  g = 1.0d0
!$xmp array on tw(2:n)
  g(2:m, 2:n) = 10 * g(1:m-1, 2:n) + 1
!$xmp array on tw
  h(:, :) = g(:, :) + g
!$xmp loop on tw(j) reduction(+:err)
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
end program array_cyclic
