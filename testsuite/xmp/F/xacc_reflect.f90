! xmpc-test: np=1,2,4
! XcalableACC in Fortran: a 2-D array on the device, reflect_init with a periodic
! width-1 halo in the distributed dimension, reflect_do in a Jacobi loop with
! !$acc loop between the loops of the XMP loop nest, compared with a sequential twin
program xacc_reflect
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 12, m = 9, iters = 5
  integer :: i, j, it, err
  real(8) :: u(m, n), w(m, n), su(m, n), sw(m, n), s, sref
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align u(*, j) with t(j)
!$xmp align w(*, j) with t(j)
!$xmp shadow u(0, 1:1)
  err = 0
!$xmp loop (j) on t(j)
  do j = 1, n
    do i = 1, m
      u(i, j) = i + 10 * j
    end do
  end do
!$acc data copy(u, w)
!$xmp reflect_init (u) width(0, /periodic/1:1) acc
  do it = 1, iters
!$xmp reflect_do (u) acc
!$xmp loop (j) on t(j)
!$acc parallel loop
    do j = 1, n
!$acc loop
      do i = 2, m - 1
        w(i, j) = 0.25d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
      end do
    end do
!$xmp loop (j) on t(j)
!$acc parallel loop
    do j = 1, n
      do i = 2, m - 1
        u(i, j) = w(i, j)
      end do
    end do
  end do
!$acc end data
  s = 0
!$xmp loop (j) on t(j) reduction(+:s)
  do j = 1, n
    do i = 1, m
      s = s + u(i, j) * (i + 2 * j)
    end do
  end do
  ! the sequential twin (periodic in j)
  do j = 1, n
    do i = 1, m
      su(i, j) = i + 10 * j
    end do
  end do
  do it = 1, iters
    do j = 1, n
      do i = 2, m - 1
        sw(i, j) = 0.25d0 * (su(i - 1, j) + su(i + 1, j) + su(i, modulo(j - 2, n) + 1) + su(i, modulo(j, n) + 1))
      end do
    end do
    do j = 1, n
      do i = 2, m - 1
        su(i, j) = sw(i, j)
      end do
    end do
  end do
  sref = 0
  do j = 1, n
    do i = 1, m
      sref = sref + su(i, j) * (i + 2 * j)
    end do
  end do
  if (abs(s - sref) > 1d-9 * abs(sref)) then
    print *, 'ERROR', s, sref
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program xacc_reflect
