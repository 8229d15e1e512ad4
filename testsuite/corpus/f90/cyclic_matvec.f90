! Matrix-vector product with rows distributed cyclic(2) and columns not
! distributed (`*`), the vector replicated; a derived type carries the sizes.
!
! xmpc-test: np=4
program cyclic_matvec
  implicit none
  include 'xmp_lib.h'
  type :: dims_t
    integer :: rows, cols
  end type dims_t
  integer, parameter :: n = 48
  real(8) :: a(n, n), y(n), x(n)
  type(dims_t) :: d
  integer :: i, j, nerr
  real(8) :: e
!$xmp nodes p(4)
!$xmp template t(n)
!$xmp distribute t(cyclic(2)) onto p
!$xmp align a(i, *) with t(i)
!$xmp align y(i) with t(i)

  d%rows = n
  d%cols = n
  do j = 1, d%cols
    x(j) = dble(j)
  end do

!$xmp loop on t(i)
  do i = 1, d%rows
    do j = 1, d%cols
      a(i, j) = dble(i + j)
    end do
  end do

!$xmp loop on t(i)
  do i = 1, d%rows
    y(i) = 0.0d0
    do j = 1, d%cols
      y(i) = y(i) + a(i, j) * x(j)
    end do
  end do

  ! y(i) = sum_j (i + j) j = i n(n+1)/2 + n(n+1)(2n+1)/6
  nerr = 0
!$xmp loop on t(i) reduction(+: nerr)
  do i = 1, n
    e = dble(i) * n * (n + 1) / 2 + dble(n) * (n + 1) * (2 * n + 1) / 6
    if (abs(y(i) - e) > 1.0d-6) nerr = nerr + 1
  end do
  if (nerr /= 0) then
    if (xmp_node_num() == 1) print *, 'FAIL', nerr
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program cyclic_matvec
