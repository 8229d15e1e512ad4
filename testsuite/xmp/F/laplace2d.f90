! xmpc-test: np=2,4
! Jacobi iteration on a (block, block) grid with shadow/reflect, checked against a
! serial computation done by every node
program laplace2d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 32, m = 24, iters = 20
  integer :: i, j, it, err
  real(8) :: u(n, m), un(n, m)
  real(8) :: su(n, m), sn(n, m)
  real(8) :: diff, sum1, sum2
!$xmp nodes p(*, 2)
!$xmp template t(n, m)
!$xmp distribute t(block, block) onto p
!$xmp align (i, j) with t(i, j) :: u, un
!$xmp shadow u(1:1, 1:1)
  ! serial reference
  su = 0
  do j = 1, m
    do i = 1, n
      su(i, j) = sin(0.1d0 * i) + cos(0.2d0 * j)
    end do
  end do
  sn = su
  do it = 1, iters
    do j = 2, m - 1
      do i = 2, n - 1
        sn(i, j) = 0.25d0 * (su(i-1, j) + su(i+1, j) + su(i, j-1) + su(i, j+1))
      end do
    end do
    su(2:n-1, 2:m-1) = sn(2:n-1, 2:m-1)
  end do
  ! distributed
!$xmp loop (i, j) on t(i, j)
  do j = 1, m
    do i = 1, n
      u(i, j) = sin(0.1d0 * i) + cos(0.2d0 * j)
      un(i, j) = u(i, j)
    end do
  end do
  do it = 1, iters
!$xmp reflect (u)
!$xmp loop (i, j) on t(i, j)
    do j = 2, m - 1
      do i = 2, n - 1
        un(i, j) = 0.25d0 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
      end do
    end do
!$xmp loop (i, j) on t(i, j)
    do j = 2, m - 1
      do i = 2, n - 1
        u(i, j) = un(i, j)
      end do
    end do
  end do
  diff = 0
  sum1 = 0
!$xmp loop (i, j) on t(i, j) reduction(max:diff) reduction(+:sum1)
  do j = 1, m
    do i = 1, n
      diff = max(diff, abs(u(i, j) - su(i, j)))
      sum1 = sum1 + u(i, j)
    end do
  end do
  sum2 = sum(su)
  err = 0
  if (diff > 1.0d-12 .or. abs(sum1 - sum2) > 1.0d-9) err = 1
  if (err /= 0) then
    print *, 'ERROR', diff, sum1, sum2
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program laplace2d
