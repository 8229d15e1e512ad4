! xmpc-test: np=2,4
! 2-D shadow/reflect on a (block, block) distribution, corners included
program reflect2d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 10, m = 8
  integer :: i, j, err
  real(8) :: a(n, m)
!$xmp nodes p(2, *)
!$xmp template t(n, m)
!$xmp distribute t(block, block) onto p
!$xmp align a(i, j) with t(i, j)
!$xmp shadow a(1:1, 1:1)
  err = 0
!$xmp loop (i, j) on t(i, j)
  do j = 1, m
    do i = 1, n
      a(i, j) = i + 1000 * j
    end do
  end do
!$xmp reflect (a)
!$xmp loop (i, j) on t(i, j)
  do j = 2, m - 1
    do i = 2, n - 1
      if (a(i-1, j) + a(i+1, j) + a(i, j-1) + a(i, j+1) /= 4 * a(i, j)) err = err + 1
      if (a(i-1, j-1) /= (i-1) + 1000 * (j-1)) err = err + 1
      if (a(i+1, j+1) /= (i+1) + 1000 * (j+1)) err = err + 1
    end do
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program reflect2d
