! xmpc-test: np=1,2,4
! 3-D template (*, block, block) and a 3-D aligned array with shadows on two dims
program block3d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: l = 3, n = 8, m = 6
  integer :: i, j, k, err
  integer :: a(l, n, m)
!$xmp nodes p(*, 1)
!$xmp template t(l, n, m)
!$xmp distribute t(*, block, block) onto p
!$xmp align a(i, j, k) with t(i, j, k)
!$xmp shadow a(0, 1:1, 1:1)
  err = 0
!$xmp loop (j, k) on t(*, j, k)
  do k = 1, m
    do j = 1, n
      do i = 1, l
        a(i, j, k) = i + 10 * j + 100 * k
      end do
    end do
  end do
!$xmp reflect (a)
!$xmp loop (j, k) on t(*, j, k) reduction(+:err)
  do k = 2, m - 1
    do j = 2, n - 1
      do i = 1, l
        if (a(i, j-1, k) + a(i, j+1, k) /= 2 * a(i, j, k)) err = err + 1
        if (a(i, j, k-1) + a(i, j, k+1) /= 2 * a(i, j, k)) err = err + 1
      end do
    end do
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program block3d
