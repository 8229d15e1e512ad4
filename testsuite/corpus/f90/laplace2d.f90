! 2-D Laplace equation, Jacobi iteration on a (block, block) distribution.
! Halo of width 1 kept by shadow and refreshed by reflect; the convergence measure
! is a max reduction. The result is checked against a sequential run done
! redundantly on every node.
!
! xmpc-test: np=4
program laplace2d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 64, niter = 100
  real(8), dimension(n, n) :: u, uu
  real(8), dimension(n, n) :: su, suu
  real(8) :: err, serr, diff
  integer :: i, j, k
!$xmp nodes p(2, 2)
!$xmp template t(n, n)
!$xmp distribute t(block, block) onto p
!$xmp align (i, j) with t(i, j) :: u, uu
!$xmp shadow uu(1:1, 1:1)

!$xmp loop (i, j) on t(i, j)
  do j = 1, n
    do i = 1, n
      if (i == 1 .or. i == n .or. j == 1 .or. j == n) then
        u(i, j) = 1.0d0
      else
        u(i, j) = 0.0d0
      end if
      uu(i, j) = u(i, j)
    end do
  end do

  do j = 1, n
    do i = 1, n
      if (i == 1 .or. i == n .or. j == 1 .or. j == n) then
        su(i, j) = 1.0d0
      else
        su(i, j) = 0.0d0
      end if
      suu(i, j) = su(i, j)
    end do
  end do

  do k = 1, niter
!$xmp reflect (uu)
!$xmp loop (i, j) on t(i, j)
    do j = 2, n - 1
      do i = 2, n - 1
        u(i, j) = (uu(i-1, j) + uu(i+1, j) + uu(i, j-1) + uu(i, j+1)) / 4.0d0
      end do
    end do
    err = 0.0d0
!$xmp loop (i, j) on t(i, j) reduction(max: err)
    do j = 2, n - 1
      do i = 2, n - 1
        err = max(err, abs(u(i, j) - uu(i, j)))
        uu(i, j) = u(i, j)
      end do
    end do
  end do

  ! Sequential reference.
  do k = 1, niter
    do j = 2, n - 1
      do i = 2, n - 1
        su(i, j) = (suu(i-1, j) + suu(i+1, j) + suu(i, j-1) + suu(i, j+1)) / 4.0d0
      end do
    end do
    serr = 0.0d0
    do j = 2, n - 1
      do i = 2, n - 1
        serr = max(serr, abs(su(i, j) - suu(i, j)))
        suu(i, j) = su(i, j)
      end do
    end do
  end do

  diff = 0.0d0
!$xmp loop (i, j) on t(i, j) reduction(max: diff)
  do j = 1, n
    do i = 1, n
      diff = max(diff, abs(uu(i, j) - suu(i, j)))
    end do
  end do

  if (diff > 1.0d-12 .or. abs(err - serr) > 1.0d-12) then
    if (xmp_node_num() == 1) print *, 'FAIL', diff, err, serr
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program laplace2d
