! xmpc-test: np=1,2,4
! 1-D diffusion on a ring (periodic reflect), total conserved, checked against serial
program laplace1d_periodic
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 48, iters = 25
  integer :: i, it
  real(8) :: u(n), un(n), su(n), sn(n), diff
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align (i) with t(i) :: u, un
!$xmp shadow u(1:1)
  do i = 1, n
    su(i) = merge(1.0d0, 0.0d0, i <= n / 3)
  end do
  do it = 1, iters
    do i = 1, n
      sn(i) = su(i) + 0.25d0 * (su(1 + mod(i - 2 + n, n)) - 2 * su(i) + su(1 + mod(i, n)))
    end do
    su = sn
  end do
!$xmp loop on t(i)
  do i = 1, n
    u(i) = merge(1.0d0, 0.0d0, i <= n / 3)
  end do
  do it = 1, iters
!$xmp reflect (u) width(/periodic/1:1)
!$xmp loop on t(i)
    do i = 1, n
      un(i) = u(i) + 0.25d0 * (u(i - 1) - 2 * u(i) + u(i + 1))
    end do
!$xmp loop on t(i)
    do i = 1, n
      u(i) = un(i)
    end do
  end do
  diff = 0
!$xmp loop on t(i) reduction(max:diff)
  do i = 1, n
    diff = max(diff, abs(u(i) - su(i)))
  end do
  if (diff > 1.0d-12) then
    print *, 'ERROR', diff
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program laplace1d_periodic
