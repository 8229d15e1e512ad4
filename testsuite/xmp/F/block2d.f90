! xmpc-test: np=2,4
! 2-D block distribution over a 2-D node set; loop (i,j) with a reduction
program block2d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 12, m = 9
  integer :: i, j, err
  real(8) :: a(n, m), s
!$xmp nodes p(2, *)
!$xmp template t(n, m)
!$xmp distribute t(block, block) onto p
!$xmp align a(i, j) with t(i, j)
  err = 0
!$xmp loop (i, j) on t(i, j)
  do j = 1, m
    do i = 1, n
      a(i, j) = i + 100 * j
    end do
  end do
  s = 0
!$xmp loop (i, j) on t(i, j) reduction(+:s)
  do j = 1, m
    do i = 1, n
      s = s + a(i, j)
      if (a(i, j) /= i + 100 * j) err = err + 1
    end do
  end do
  if (s /= m * n * (n + 1) / 2 + 100 * n * m * (m + 1) / 2) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err, s
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program block2d
