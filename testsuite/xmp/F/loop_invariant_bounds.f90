! xmpc-test: np=1,2,4
! A loop nest whose inner bounds are variables (CloverLeaf's kernels: do k / do j =
! x_min, x_max+1 over dummies): the inner schedule is computed once before the nest
! when the variables keep their values through it (dummies and locals not named in the
! body), and per outer iteration otherwise (a bound changed in the body, a call).
module kern
contains
  subroutine fill(a, x_min, x_max, y_min, y_max, total)
    integer :: x_min, x_max, y_min, y_max, total
    integer :: a(x_min:x_max, y_min:y_max)
    integer :: j, k, hi, s, s2
!$xmp nodes p(*)
!$xmp template t(x_min:x_max, y_min:y_max)
!$xmp distribute t(block, *) onto p
!$xmp align (i, m) with t(i, m) :: a
    ! invariant bounds: hoisted
!$xmp loop (j, k) on t(j, k)
    do k = y_min, y_max
      do j = x_min, x_max
        a(j, k) = j + 100 * k
      end do
    end do
    ! a bound changed in the body: one schedule per row
    hi = x_max
    s = 0
!$xmp loop (j, k) on t(j, k) reduction(+:s)
    do k = y_min, y_max
      do j = x_min, hi
        s = s + a(j, k)
      end do
      hi = hi - 1
      hi = hi + 1
    end do
    ! a call in the nest: not hoisted either
    s2 = 0
!$xmp loop (j, k) on t(j, k) reduction(+:s2)
    do k = y_min, y_max
      call bump(hi)
      do j = x_min, hi
        s2 = s2 + 1
      end do
    end do
    total = s + s2
  end subroutine fill
  subroutine bump(h)
    integer :: h
    h = h + 0
  end subroutine bump
end module kern

program main
  use kern
  integer, parameter :: nx = 13, ny = 7
  integer :: a(nx, ny)
  integer :: total, want, j, k
!$xmp nodes p(*)
!$xmp template t(nx, ny)
!$xmp distribute t(block, *) onto p
!$xmp align (i, m) with t(i, m) :: a
  call fill(a, 1, nx, 1, ny, total)
  want = nx * ny
  do k = 1, ny
    do j = 1, nx
      want = want + j + 100 * k
    end do
  end do
  if (total /= want) then
    print *, 'ERROR', total, want
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program main
