! xmpc-test: np=1,2,4
! xmp_matmul (x = matmul(a, b), real(8) and integer, Fortran order) and
! xmp_sort_up / xmp_sort_down (real) from Fortran, against the sequential
! matmul intrinsic and a sequential insertion sort.
program library_matmul_sort
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n1 = 5, n2 = 4, n3 = 6, n = 23
!$xmp nodes p(*)
!$xmp template ta(n1, n2)
!$xmp template tb(n2, n3)
!$xmp template tx(n1, n3)
!$xmp template ts(n)
!$xmp distribute ta(block, *) onto p
!$xmp distribute tb(*, cyclic) onto p
!$xmp distribute tx(cyclic(2), *) onto p
!$xmp distribute ts(block) onto p
  real(8) :: a(n1, n2), b(n2, n3), x(n1, n3)
  integer :: ia(n1, n2), ib(n2, n3), ix(n1, n3)
  real :: s(n), u(n)
!$xmp align a(i, j) with ta(i, j)
!$xmp align b(i, j) with tb(i, j)
!$xmp align x(i, j) with tx(i, j)
!$xmp align ia(i, j) with ta(i, j)
!$xmp align ib(i, j) with tb(i, j)
!$xmp align ix(i, j) with tx(i, j)
!$xmp align s(i) with ts(i)
!$xmp align u(i) with ts(i)
  real(8) :: ra(n1, n2), rb(n2, n3), rx(n1, n3)
  real :: rs(n), t
  integer :: i, j, k, nerr
  nerr = 0
  do j = 1, n2
    do i = 1, n1
      ra(i, j) = i - 2 * j + 0.5d0
    end do
  end do
  do j = 1, n3
    do i = 1, n2
      rb(i, j) = mod(i * j, 5) - 1
    end do
  end do
  rx = matmul(ra, rb)
!$xmp loop on ta(i, j)
  do j = 1, n2
    do i = 1, n1
      a(i, j) = ra(i, j)
      ia(i, j) = int(2 * ra(i, j))
    end do
  end do
!$xmp loop on tb(i, j)
  do j = 1, n3
    do i = 1, n2
      b(i, j) = rb(i, j)
      ib(i, j) = int(rb(i, j))
    end do
  end do
  call xmp_matmul(xmp_desc_of(x), xmp_desc_of(a), xmp_desc_of(b))
  call xmp_matmul(xmp_desc_of(ix), xmp_desc_of(ia), xmp_desc_of(ib))
!$xmp loop on tx(i, j) reduction(+:nerr)
  do j = 1, n3
    do i = 1, n1
      if (x(i, j) /= rx(i, j)) nerr = nerr + 1
      if (ix(i, j) /= nint(2 * rx(i, j))) nerr = nerr + 1
    end do
  end do
  do i = 1, n
    rs(i) = mod(i * 7, 11) * 1.5 - 4
  end do
!$xmp loop on ts(i)
  do i = 1, n
    s(i) = rs(i)
  end do
  do i = 2, n
    t = rs(i)
    k = i - 1
    do while (k >= 1)
      if (rs(k) <= t) exit
      rs(k + 1) = rs(k)
      k = k - 1
    end do
    rs(k + 1) = t
  end do
  call xmp_sort_up(xmp_desc_of(s), xmp_desc_of(u))
!$xmp loop on ts(i) reduction(+:nerr)
  do i = 1, n
    if (u(i) /= rs(i)) nerr = nerr + 1
  end do
  call xmp_sort_down(xmp_desc_of(s), xmp_desc_of(u))
!$xmp loop on ts(i) reduction(+:nerr)
  do i = 1, n
    if (u(i) /= rs(n + 1 - i)) nerr = nerr + 1
  end do
!$xmp reduction(+:nerr)
  if (nerr /= 0) then
    if (xmp_node_num() == 1) print *, 'ERROR', nerr
    call xmp_exit(1)
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program library_matmul_sort
