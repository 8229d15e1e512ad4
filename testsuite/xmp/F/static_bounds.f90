! xmpc-test: np=1,2,3
! An aligned array's dimensions that no node set splits (aligned with a `*` template
! dimension, or not aligned at all) are allocated with the bounds the translator
! knows (`static_bounds` in backends/src/fortran/mod.rs: a(0:9, ...), the shadow widths
! added), the others with the runtime's; xmpf_array_attach stops the program if the
! two disagree. Checked here: a lower bound of 0, shadows on a `*` dimension (their
! bounds seen with lbound/ubound), an aligned offset, a dimension not aligned, and an
! array on a template of one node (empty on the other processes).
program static_bounds
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: nx = 10, ny = 12
  integer :: i, j, k, err, me
  integer(8) :: s, sa
!$xmp nodes p(*)
!$xmp nodes q(1) = p(1:1)
!$xmp template t(0:nx-1, ny)
!$xmp distribute t(*, block) onto p
!$xmp template t3(0:nx+2, ny)
!$xmp distribute t3(*, block) onto p
!$xmp template t2(0:nx-1, ny)
!$xmp distribute t2(*, block) onto q
  real(8) :: a(0:nx-1, ny), b(0:nx-1, ny), d(0:nx-1, ny), e(0:nx-1, ny)
  integer :: c(3, 0:nx-1, ny)
!$xmp align (i, j) with t(i, j) :: a, b
!$xmp align c(*, i, j) with t(i, j)
!$xmp align d(i, j) with t3(i+2, j)
!$xmp align e(i, j) with t2(i, j)
!$xmp shadow a(0, 1)
!$xmp shadow b(2:1, 0)
  me = xmp_node_num()
  err = 0
!$xmp loop (i, j) on t(i, j)
  do j = 1, ny
    do i = 0, nx - 1
      a(i, j) = 100 * i + j
      b(i, j) = -(100 * i + j)
      do k = 1, 3
        c(k, i, j) = 1000 * k + 100 * i + j
      end do
    end do
  end do
!$xmp loop (i, j) on t3(i+2, j)
  do j = 1, ny
    do i = 0, nx - 1
      d(i, j) = 7 * i + j
    end do
  end do
!$xmp loop (i, j) on t2(i, j)
  do j = 1, ny
    do i = 0, nx - 1
      e(i, j) = 3 * i + j
    end do
  end do
!$xmp reflect (a)
  s = 0
  sa = 0
!$xmp loop (i, j) on t(i, j) reduction(+:err, s, sa)
  do j = 1, ny
    do i = 0, nx - 1
      if (j > 1) then
        if (a(i, j - 1) /= 100 * i + j - 1) err = err + 1
      end if
      if (j < ny) then
        if (a(i, j + 1) /= 100 * i + j + 1) err = err + 1
      end if
      if (b(i, j) /= -(100 * i + j)) err = err + 1
      if (d(i, j) /= 7 * i + j) err = err + 1
      do k = 1, 3
        s = s + c(k, i, j)
      end do
      sa = sa + nint(a(i, j))
    end do
  end do
  ! the `*` dimension holds the declared range and its shadows on every node
  if (lbound(a, 1) /= 0 .or. ubound(a, 1) /= nx - 1) err = err + 1
  if (lbound(b, 1) /= -2 .or. ubound(b, 1) /= nx) err = err + 1
  if (lbound(c, 1) /= 1 .or. ubound(c, 1) /= 3) err = err + 1
  if (lbound(c, 2) /= 0 .or. ubound(c, 2) /= nx - 1) err = err + 1
  if (lbound(d, 1) /= 0 .or. ubound(d, 1) /= nx - 1) err = err + 1
  s = s - (3 * ny * (100 * nx * (nx - 1) / 2) + 3 * nx * (ny * (ny + 1) / 2) + 6000 * nx * ny)
  sa = sa - (ny * (100 * nx * (nx - 1) / 2) + nx * (ny * (ny + 1) / 2))
  if (me == 1) then
    if (e(nx - 1, ny) /= 3 * (nx - 1) + ny .or. size(e) /= nx * ny) err = err + 1
  else
    if (size(e) /= 0) err = err + 1
  end if
!$xmp reduction(+:err)
  if (err /= 0 .or. s /= 0 .or. sa /= 0) then
    if (me == 1) write (*, '(a,i0,a,i0,a,i0)') 'FAIL err ', err, ' s ', s, ' sa ', sa
    call exit(1)
  end if
  if (me == 1) write (*, '(a)') 'PASS'
end program static_bounds
