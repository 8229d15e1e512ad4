! xmpc-test: np=1,2,3,4
! gmove with arrays aligned with cyclic(w) templates (w = 3 and 2, not dividing
! n; lower bound -2): between two cyclic(w) distributions (whole, strided with a
! negative stride), 2-D (*, cyclic(3)) <- / -> (*, block) with sections, and a
! local column <- a 2-D section. Every owner's element is checked against its
! formula.
program gmove_cyclic_w
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 29, m = 4
  integer :: i, j, q, err
  real(8) :: a(-2:n-3), d(n), g(m, -2:n-3), h(m, n), col(m)
!$xmp nodes p(*)
!$xmp template tw(-2:n-3)
!$xmp template td(n)
!$xmp template th(n)
!$xmp distribute tw(cyclic(3)) onto p
!$xmp distribute td(cyclic(2)) onto p
!$xmp distribute th(block) onto p
!$xmp align a(i) with tw(i)
!$xmp align g(*, j) with tw(j)
!$xmp align d(i) with td(i)
!$xmp align h(*, j) with th(j)
  err = 0
!$xmp loop on tw(i)
  do i = -2, n - 3
    a(i) = 1.5d0 * i
  end do
  ! cyclic(2) <- cyclic(3): d(k) = a(k - 3)
!$xmp gmove
  d(:) = a(:)
!$xmp loop on td(i) reduction(+:err)
  do i = 1, n
    if (d(i) /= 1.5d0 * (i - 3)) err = err + 1
  end do
  ! every other element of a from d backwards: a(-2 + 2k) = d(n - 2k)
!$xmp gmove
  a(-2:n-3:2) = d(n:1:-2)
!$xmp loop on tw(i) reduction(+:err)
  do i = -2, n - 3
    if (mod(i + 2, 2) == 0) then
      if (a(i) /= 1.5d0 * (n - (i + 2) - 3)) err = err + 1
    else
      if (a(i) /= 1.5d0 * i) err = err + 1
    end if
  end do
  ! 2-D: (*, block) <- (*, cyclic(3)): h(i, k) = g(i, k - 3)
!$xmp loop on tw(j)
  do j = -2, n - 3
    do i = 1, m
      g(i, j) = i + 100.0d0 * j
    end do
  end do
!$xmp gmove
  h(:, 1:n) = g(:, :)
!$xmp loop on th(j) reduction(+:err)
  do j = 1, n
    do i = 1, m
      if (h(i, j) /= i + 100.0d0 * (j - 3)) err = err + 1
    end do
  end do
  ! (*, cyclic(3)) section <- (*, block) section: g(i, 5q) = h(i - 1, q + 1)
!$xmp gmove
  g(2:m, 0:n-3:5) = h(1:m-1, 1:6)
!$xmp loop on tw(j) reduction(+:err)
  do j = -2, n - 3
    do i = 1, m
      if (i >= 2 .and. j >= 0 .and. mod(j, 5) == 0) then
        q = j / 5
        if (g(i, j) /= (i - 1) + 100.0d0 * (q + 1 - 3)) err = err + 1
      else
        if (g(i, j) /= i + 100.0d0 * j) err = err + 1
      end if
    end do
  end do
  ! local column <- 2-D section of the cyclic(3) array (every node gets it)
  col = 0
!$xmp gmove
  col(:) = g(:, 7)
  do i = 1, m
    if (col(i) /= i + 700.0d0) err = err + 1
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    if (xmp_node_num() == 1) print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program gmove_cyclic_w
