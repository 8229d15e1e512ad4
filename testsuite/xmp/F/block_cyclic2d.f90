! xmpc-test: np=2,4
! (block, cyclic) distribution on a 2-D node set; an array aligned with it
program block_cyclic2d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 10, m = 11
  integer :: i, j, err, cnt
  integer :: a(n, m)
!$xmp nodes p(2, *)
!$xmp template t(n, m)
!$xmp distribute t(block, cyclic) onto p
!$xmp align a(i, j) with t(i, j)
  err = 0
  cnt = 0
!$xmp loop (i, j) on t(i, j)
  do j = 1, m
    do i = 1, n
      a(i, j) = i - j
      cnt = cnt + 1
    end do
  end do
!$xmp loop (i, j) on t(i, j) reduction(+:err)
  do j = 1, m
    do i = 1, n
      if (a(i, j) /= i - j) err = err + 1
    end do
  end do
!$xmp reduction(+:cnt)
  if (err /= 0 .or. cnt /= n * m) then
    print *, 'ERROR', err, cnt
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program block_cyclic2d
