! xmpc-test: np=1,2,3,4
! assumed-shape aligned dummy arguments (`a(:)`, `a(:,:)`): the callee describes
! the caller's distributed allocatable arrays again with its own template, align
! and shadow; loop, reflect and reduction on them inside the subroutines; a
! subroutine called more times than MPI has communicators
module shape_ops
  implicit none
contains
  ! b(i) = a(i-1) + a(i+1) (0 outside 1..n); s = sum of a
  subroutine stencil(a, b, n, s)
    integer, intent(in) :: n
    real(8) :: a(:), b(:)
    real(8), intent(out) :: s
    integer :: i
    real(8) :: l, r
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align (i) with t(i) :: a, b
!$xmp shadow a(1:1)
!$xmp reflect (a)
    s = 0
!$xmp loop on t(i) reduction(+: s)
    do i = 1, n
      l = 0
      r = 0
      if (i > 1) l = a(i - 1)
      if (i < n) r = a(i + 1)
      b(i) = l + r
      s = s + a(i)
    end do
  end subroutine stencil

  ! 2-D, columns distributed, one shadow column on each side, lower bound 0 in
  ! dim 1: c(i, j) = g(i, j-1) + g(i, j+1); mx = max of g
  subroutine cols(g, c, m, n, mx)
    integer, intent(in) :: m, n
    integer :: g(0:, :)
    integer :: c(0:, :)
    integer, intent(out) :: mx
    integer :: i, j
!$xmp nodes q(*)
!$xmp template u(n)
!$xmp distribute u(block) onto q
!$xmp align g(*, j) with u(j)
!$xmp align c(*, j) with u(j)
!$xmp shadow g(0, 1:1)
!$xmp reflect (g)
    mx = -1
!$xmp loop on u(j) reduction(max: mx)
    do j = 2, n - 1
      do i = 0, m - 1
        c(i, j) = g(i, j - 1) + g(i, j + 1)
        mx = max(mx, g(i, j))
      end do
    end do
  end subroutine cols

  ! adds 1 to every element; counts the reflected neighbours that differ (all
  ! elements are equal before the call)
  subroutine bump(a, n, bad)
    integer, intent(in) :: n
    integer :: a(:)
    integer, intent(inout) :: bad
    integer :: i
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp shadow a(1:1)
!$xmp reflect (a)
!$xmp loop on t(i)
    do i = 1, n
      if (i > 1) then
        if (a(i - 1) /= a(i)) bad = bad + 1
      end if
      if (i < n) then
        if (a(i + 1) /= a(i)) bad = bad + 1
      end if
    end do
!$xmp loop on t(i)
    do i = 1, n
      a(i) = a(i) + 1
    end do
  end subroutine bump
end module shape_ops

program assumed_shape
  use shape_ops
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 23, m = 3, k = 11
  real(8), allocatable :: x(:), y(:)
  integer, allocatable :: g(:, :), c(:, :), z(:)
  real(8) :: s, want
  integer :: i, j, err, mx, bad
  integer, parameter :: calls = 2100
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp template u(k)
!$xmp distribute t(block) onto p
!$xmp distribute u(block) onto p
!$xmp align (i) with t(i) :: x, y
!$xmp shadow x(1:1)
!$xmp align (*, j) with u(j) :: g, c
!$xmp shadow g(0, 1:1)
!$xmp align z(i) with t(i)
!$xmp shadow z(1:1)
  allocate(x(n), y(n))
  allocate(g(0:m-1, k), c(0:m-1, k), z(n))
!$xmp loop on t(i)
  do i = 1, n
    x(i) = i * i
  end do
!$xmp loop on u(j)
  do j = 1, k
    do i = 0, m - 1
      g(i, j) = 100 * j + i
    end do
  end do
  call stencil(x, y, n, s)
  call cols(g, c, m, k, mx)
  bad = 0
  do j = 1, calls
    call bump(z, n, bad)
  end do
  err = 0
!$xmp loop on t(i) reduction(+: err)
  do i = 1, n
    if (z(i) /= calls) err = err + 1
  end do
!$xmp reduction(+: bad)
  if (bad /= 0) err = err + 100000
!$xmp loop on t(i) reduction(+: err)
  do i = 1, n
    want = 0
    if (i > 1) want = want + (i - 1) ** 2
    if (i < n) want = want + (i + 1) ** 2
    if (y(i) /= want) err = err + 1
  end do
  ! sum of squares 1..n
  if (s /= dble(n * (n + 1) * (2 * n + 1) / 6)) err = err + 1000
!$xmp loop on u(j) reduction(+: err)
  do j = 2, k - 1
    do i = 0, m - 1
      if (c(i, j) /= 200 * j + 2 * i) err = err + 1
    end do
  end do
  ! largest g over columns 2..k-1
  if (mx /= 100 * (k - 1) + m - 1) err = err + 10000
  if (err /= 0) then
    print *, 'ERROR', xmp_node_num(), err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program assumed_shape
